// A registrar bulk-registers 20 names on the dashboard's Bulk Operations
// tab, clicked through in Chromium against a real server whose worker runs
// the job: the wallet holds enough for 19, so 19 are registered and the last
// is refused for insufficient funds and charged nothing. BULK_SHOTS=DIR also
// saves screenshots at 1280 and 375 px.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { deposit, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

describe('Bulk operations', () => {
  test('bulk-register 20 names with one insufficient-funds row', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('bulkreg'), { type: 'registrar' })
    const prefix = uniqueName('bulk')
    const names = Array.from({ length: 20 }, (_, i) => `${prefix}n${i + 1}.inf.nz`)

    // The registrar's price for one of them, to fund 19 and a little more.
    const priced = await page.request.post('/api/registrar/bulk/check', { data: { names: names.slice(0, 1) } })
    assert.equal(priced.status(), 200)
    const price = (await priced.json()).data.results[0].price
    assert.ok(price > 1)
    const spare = 1
    await deposit(page, 19 * price + spare)

    await page.goto('/registrar-dashboard?tab=bulk')
    await page.getByRole('textbox', { name: 'Domain names' }).fill(names.join('\n'))
    await page.getByRole('button', { name: 'Check availability' }).click()
    const table = page.getByRole('table', { name: 'Availability' })
    await table.waitFor()
    await page.getByText('20 of 20 available').waitFor()
    assert.equal(await table.getByText('Available', { exact: true }).count(), 20)

    // Every available name starts chosen; unchoosing one and choosing all again.
    await table.getByRole('checkbox', { name: `Register ${names[3]}` }).uncheck()
    await page.getByRole('button', { name: `Register 19 domains for $${(19 * price).toFixed(2)}` }).waitFor()
    await table.getByRole('checkbox', { name: 'Select all available' }).check()
    const total = `$${(20 * price).toFixed(2)}`
    await page.getByRole('button', { name: `Register 20 domains for ${total}` }).click()

    const dialog = page.getByRole('dialog', { name: 'Confirm registration' })
    await dialog.getByText(`Register 20 domains for one year for a total of ${total}`, { exact: false }).waitFor()
    if (process.env.BULK_SHOTS) {
      await page.screenshot({ path: join(process.env.BULK_SHOTS, 'bulk-confirm-1280.png') })
    }
    await dialog.getByRole('button', { name: `Pay ${total}` }).click()

    const job = page.getByRole('region', { name: 'Registration job' })
    await job.getByRole('status').filter({ hasText: 'Finished: 20 of 20 done' }).waitFor({ timeout: 60_000 })
    await job.getByText('19 registered, 1 refused').waitFor()
    assert.equal(await job.getByText('Registered', { exact: true }).count(), 19)
    assert.equal(await job.getByText('Refused', { exact: true }).count(), 1)
    const refused = job.getByRole('row').filter({ hasText: names[19] })
    await refused.getByText(/Insufficient funds/).waitFor()
    await job.getByText(`Charged $${(19 * price).toFixed(2)} of the ${total} confirmed`).waitFor()

    // The wallet: the deposit less 19 prices, and the ledger agrees.
    const wallet = await (await page.request.get('/api/wallet')).json()
    assert.equal(wallet.data.balance, spare)
    const domains = await (await page.request.get('/api/domains')).json()
    assert.equal(domains.data.length, 19)
    assert.ok(!domains.data.some((d) => `${d.name}${d.extension}` === names[19]))

    if (process.env.BULK_SHOTS) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 740 : 800 })
        await page.screenshot({ path: join(process.env.BULK_SHOTS, `bulk-job-${width}.png`), fullPage: true })
        await job.screenshot({ path: join(process.env.BULK_SHOTS, `bulk-job-only-${width}.png`) })
      }
      await page.goto('/registrar-dashboard?tab=bulk')
      await page
        .getByLabel('Domain names')
        .fill([...names.slice(0, 3), 'bad_name.inf.nz', `${prefix}free.inf.nz`].join('\n'))
      await page.getByRole('button', { name: 'Check availability' }).click()
      await page.getByRole('table', { name: 'Availability' }).waitFor()
      await page.getByRole('table', { name: 'Your domains' }).waitFor()
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 740 : 800 })
        await page.screenshot({ path: join(process.env.BULK_SHOTS, `bulk-check-${width}.png`), fullPage: true })
        await page
          .getByRole('table', { name: 'Availability' })
          .screenshot({ path: join(process.env.BULK_SHOTS, `bulk-check-table-${width}.png`) })
        await page
          .getByRole('table', { name: 'Your domains' })
          .screenshot({ path: join(process.env.BULK_SHOTS, `bulk-renew-table-${width}.png`) })
      }
    }
    await page.context().close()
  })

  test('a DNS template is saved, edited, and applied whole or not at all to each domain', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('tmplreg'), { type: 'registrar' })
    const prefix = uniqueName('tmpl')
    const labels = [`${prefix}-a`, `${prefix}-a-long-name-for-a-phone-screen`]
    const names = labels.map((l) => `${l}.inf.nz`)
    const priced = await page.request.post('/api/registrar/bulk/check', { data: { names } })
    await deposit(page, (await priced.json()).data.total + 1)
    const ids = []
    for (const name of labels) {
      const r = await page.request.post('/api/domains', {
        data: { name, extension: '.inf.nz', years: 1, autoRenew: true },
        headers: { 'Idempotency-Key': uniqueName('tmpl-key-') },
      })
      assert.equal(r.status(), 201, await r.text())
      ids.push((await r.json()).data.domain.id)
    }
    // The second domain keeps an A record at shop, where the template puts a CNAME.
    const added = await page.request.post(`/api/domains/${ids[1]}/dns`, {
      data: { type: 'A', name: 'shop', content: '192.0.2.99' },
    })
    assert.equal(added.status(), 201, await added.text())

    await page.goto('/registrar-dashboard?tab=bulk')
    await page.getByLabel('Template name').fill('Shop')
    await page.getByLabel('Records').fill('@ A 192.0.2.10\nshop CNAME shops.example.net.')
    await page.getByRole('button', { name: 'Save template' }).click()
    const templates = page.getByRole('list', { name: 'DNS templates' })
    await templates.getByText('Shop', { exact: true }).waitFor()

    // Edited: a www record before the CNAME, so the CNAME is the last set.
    await templates.getByRole('button', { name: 'Edit template Shop' }).click()
    await page.getByRole('heading', { name: 'Edit Shop' }).waitFor()
    await page.getByLabel('Records').fill('@ A 192.0.2.10\nwww A 192.0.2.11\nshop CNAME shops.example.net.')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await templates.getByText(/www A 192\.0\.2\.11/).waitFor()

    await page.getByLabel('Template', { exact: true }).selectOption({ label: 'Shop' })
    await page.getByLabel('Your domains').fill(names.join('\n'))
    await page.getByRole('button', { name: 'Apply template' }).click()
    const job = page.getByRole('region', { name: 'DNS template job' })
    await job.getByRole('status').filter({ hasText: 'Finished: 2 of 2 done' }).waitFor({ timeout: 60_000 })
    await job.getByText('1 applied, 1 refused').waitFor()
    await job
      .getByRole('row')
      .filter({ hasText: 'Refused' })
      .getByText('A CNAME record cannot share its name with other records: shop already has A records')
      .waitFor()

    const records = async (id) =>
      (await (await page.request.get(`/api/domains/${id}/dns`)).json()).data.map(
        (r) => `${r.type} ${r.name} ${r.content}`,
      )
    const kept = await records(ids[1])
    assert.ok(kept.includes('A shop 192.0.2.99'))
    assert.ok(
      !kept.some((r) => r.includes('192.0.2.10') || r.includes('192.0.2.11')),
      'the refused domain is unchanged',
    )
    const applied = await records(ids[0])
    for (const want of ['A @ 192.0.2.10', 'A www 192.0.2.11', 'CNAME shop shops.example.net']) {
      assert.ok(applied.includes(want), `${want} in ${applied.join(', ')}`)
    }

    if (process.env.BULK_SHOTS) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 740 : 800 })
        await page.screenshot({ path: join(process.env.BULK_SHOTS, `bulk-templates-${width}.png`), fullPage: true })
        await job.screenshot({ path: join(process.env.BULK_SHOTS, `bulk-template-job-${width}.png`) })
      }
    }
    await page.context().close()
  })
})
