// Domain search on the landing page and the premium catalogue, in Chromium
// against a real server started with --demo (its demo catalogue: the three
// extensions at $8, shop.biz.ee with a live 20% discount, home.inf.nz
// reserved, travel.orgn.uk the only travel name, cloud.inf.nz technology).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function search(page, name, extension = '.inf.nz') {
  const form = page.getByRole('search', { name: 'Domain search' })
  await form.getByLabel('Domain name').fill(name)
  await form.getByLabel('Extension').selectOption(extension)
  await form.getByRole('button', { name: 'Search' }).click()
  return page.getByRole('region', { name: 'Search result' })
}

describe('catalogue', () => {
  test('a free name on .inf.nz is available at $8.00 per year', async () => {
    const page = await app.newPage()
    await page.goto('/')
    // The extension list comes from the server, with .inf.nz chosen.
    const extension = page.getByRole('search', { name: 'Domain search' }).getByLabel('Extension')
    assert.equal(await extension.inputValue(), '.inf.nz')
    const result = await search(page, 'nameport-e2e-free')
    await result.getByText('nameport-e2e-free.inf.nz', { exact: true }).waitFor()
    await result.getByText('$8.00', { exact: true }).waitFor()
    assert.match(await result.textContent(), /per year/)
    assert.equal(await result.getByText('Premium', { exact: true }).count(), 0)
    // A visitor signs up first and comes back to this search.
    const href = await result.getByRole('link', { name: 'Register Now' }).getAttribute('href')
    const target = new URL(href, app.baseURL)
    assert.equal(target.pathname, '/register')
    assert.equal(target.searchParams.get('redirect'), '/?name=nameport-e2e-free&extension=.inf.nz')
    await page.context().close()
  })

  test("an invalid name shows the spec's message and asks the server nothing", async () => {
    const page = await app.newPage()
    const asked = []
    page.on('request', (request) => request.url().includes('/api/domains/check') && asked.push(request.url()))
    await page.goto('/')
    await search(page, '-bad-')
    await page
      .getByText(
        'Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.',
        { exact: true },
      )
      .waitFor()
    assert.deepEqual(asked, [])
    await page.context().close()
  })

  test('shop on .biz.ee is premium at its discounted $280.00', async () => {
    const page = await app.newPage()
    await page.goto('/')
    const result = await search(page, 'shop', '.biz.ee')
    await result.getByText('shop.biz.ee', { exact: true }).waitFor()
    await result.getByText('Premium', { exact: true }).waitFor()
    await result.getByText('$280.00', { exact: true }).waitFor()
    await result.getByRole('link', { name: 'Register Now' }).waitFor()
    await page.context().close()
  })

  test('home on .inf.nz is reserved: a disabled Not Available', async () => {
    const page = await app.newPage()
    await page.goto('/')
    const result = await search(page, 'home')
    const button = result.getByRole('button', { name: 'Not Available' })
    await button.waitFor()
    assert.equal(await button.isDisabled(), true)
    assert.equal(await result.getByRole('link', { name: 'Register Now' }).count(), 0)
    await page.context().close()
  })

  test('the landing teaser shows three premium names and links to the catalogue', async () => {
    const page = await app.newPage()
    await page.goto('/')
    const teaser = page.getByRole('region', { name: 'Short, memorable, ready to use' })
    await teaser.getByText('per year').first().waitFor()
    assert.equal(await teaser.getByRole('listitem').count(), 3)
    await teaser.getByRole('link', { name: 'View All Premium Domains' }).click()
    await page.waitForURL('**/premium-domains')
    await page.getByRole('heading', { name: 'Premium Domains', level: 1 }).waitFor()
    await page.context().close()
  })

  test('/premium-domains filtered by Travel shows travel.orgn.uk only', async () => {
    const page = await app.newPage()
    await page.goto('/premium-domains')
    await page.getByRole('article', { name: 'cloud.inf.nz' }).waitFor()
    // Reserved names are not on sale.
    assert.equal(await page.getByRole('article', { name: 'home.inf.nz' }).count(), 0)
    // The live discount shows with the list price struck through.
    const shop = page.getByRole('article', { name: 'shop.biz.ee' })
    await shop.getByText('$280.00', { exact: true }).waitFor()
    await shop.locator('s', { hasText: '$350.00' }).waitFor()
    await shop.getByText('20% off', { exact: true }).waitFor()
    // An expired discount does not.
    const sport = page.getByRole('article', { name: 'sport.biz.ee' })
    await sport.getByText('$220.00', { exact: true }).waitFor()
    assert.equal(await sport.getByText(/% off/).count(), 0)

    await page.getByLabel('Category').selectOption({ label: 'Travel' })
    await page.waitForURL('**/premium-domains?category=travel')
    await page.getByRole('article', { name: 'travel.orgn.uk' }).waitFor()
    assert.equal(await page.getByRole('article', { name: 'cloud.inf.nz' }).count(), 0)
    assert.equal(await page.getByRole('article').count(), 1)

    // The filter is in the address: opening it again shows the same list.
    await page.reload()
    await page.getByRole('article', { name: 'travel.orgn.uk' }).waitFor()
    assert.equal(await page.getByRole('article').count(), 1)
    await page.context().close()
  })
})
