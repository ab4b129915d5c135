// The admin dashboard's Domain Extensions and Advanced Config tabs, in
// Chromium against a real `nameport serve --demo`: an admin adds an extension
// with two length rules (a third overlapping one is refused), then edits it
// in Advanced Config, where the DNS API key shows masked and survives a save.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

async function openTab(page, name) {
  await page.goto('/admin-dashboard')
  await page.getByRole('tab', { name }).click()
  return page.getByRole('tabpanel', { name })
}

const OVERLAP = 'There is an overlap with an existing rule. Each domain length must be covered by only one rule.'

describe('Domain extensions admin', () => {
  test('add an extension with two length rules, refuse an overlapping third, edit it in Advanced Config', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openTab(page, 'Domain Extensions')
    await panel.getByRole('cell', { name: '.inf.nz', exact: true }).waitFor()

    await panel.getByRole('button', { name: 'Add Extension' }).click()
    await panel.getByLabel('Extension', { exact: true }).fill('.shop.nz')
    await panel.getByLabel('Base price (USD)').fill('10')
    await panel.getByLabel('Description', { exact: true }).fill('Shops and stores')

    await panel.getByRole('button', { name: '1-3 characters' }).click()
    assert.equal(await panel.getByLabel('Rule price').inputValue(), '20', 'twice the base price')
    await panel.getByRole('button', { name: 'Add Rule' }).click()
    await panel.getByRole('button', { name: '4-63 characters' }).click()
    await panel.getByLabel('Rule price').fill('12')
    await panel.getByRole('button', { name: 'Add Rule' }).click()

    await panel.getByLabel('Min length').fill('3')
    await panel.getByLabel('Max length').fill('6')
    await panel.getByRole('button', { name: 'Add Rule' }).click()
    await panel.getByRole('alert').filter({ hasText: OVERLAP }).waitFor()
    assert.equal(await panel.getByRole('list', { name: 'Length pricing rules' }).getByRole('listitem').count(), 2)

    await panel.getByRole('button', { name: 'Save Extension' }).click()
    await page.getByText('Domain extension has been added', { exact: true }).waitFor()
    const row = panel.getByRole('row').filter({ hasText: '.shop.nz' })
    await row.getByText('2 length rules').waitFor()
    await row.getByText('Active', { exact: true }).waitFor()

    // Advanced Config: give it a Cloudflare key, then change something else.
    const advanced = await openTab(page, 'Advanced Config')
    await advanced
      .getByRole('navigation', { name: 'Extensions' })
      .getByRole('button', { name: /\.shop\.nz/ })
      .click()
    await advanced.getByRole('heading', { name: 'Configure .shop.nz' }).waitFor()
    const update = advanced.getByRole('button', { name: 'Update Extension' })
    assert.equal(await update.isDisabled(), true, 'nothing changed yet')
    await advanced.getByRole('tab', { name: 'DNS' }).click()
    await advanced.getByLabel('DNS provider').selectOption('cloudflare')
    await advanced.getByLabel('DNS API key').fill('cf-token-ABCD1234')
    await advanced.getByLabel('DNS zone ID').fill('zone-42')
    await update.click()
    // The save says so, and the earlier "has been added" toast is gone.
    await page.getByText('Settings of .shop.nz saved', { exact: true }).waitFor()
    await page.getByText('Domain extension has been added', { exact: true }).waitFor({ state: 'hidden' })
    // The form reloads with the saved extension: the key shows masked.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('input')].some((input) => input.value === '••••1234'),
    )
    assert.equal(await advanced.getByLabel('DNS API key').inputValue(), '••••1234')
    assert.equal(await update.isDisabled(), true, 'saved: nothing changed')

    await advanced.getByRole('tab', { name: 'Contacts' }).click()
    await advanced.getByLabel('Admin email').fill('ops@shop.example')
    const saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/api/domain-extensions/'),
    )
    await update.click()
    const body = (await saved).request().postDataJSON()
    assert.equal(body.dnsApiKey, undefined, 'the masked key is not sent back')
    assert.equal(body.adminEmail, 'ops@shop.example')

    const list = await page.evaluate(async () => (await (await fetch('/api/domain-extensions')).json()).data)
    const shop = list.find((e) => e.extension === '.shop.nz')
    assert.equal(shop.dnsApiKey, '••••1234')
    assert.equal(shop.hasDnsApiKey, true)
    assert.equal(shop.adminEmail, 'ops@shop.example')
    assert.ok(!JSON.stringify(list).includes('cf-token'), 'the key is never sent in full')
    await page.context().close()
  })

  test('on a 375 px phone the tabs fit the screen', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    for (const name of ['Domain Extensions', 'Advanced Config']) {
      const panel = await openTab(page, name)
      await panel.getByRole('button', { name: 'Help' }).waitFor()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`)
    }
    await page.context().close()
  })

  test('on a 375 px phone the extensions are cards, with nothing scrolling sideways inside the tab', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    const panel = await openTab(page, 'Domain Extensions')
    const cards = panel.getByRole('list', { name: 'Domain extensions' }).getByRole('listitem')
    await cards.first().waitFor()
    const count = await cards.count()
    assert.ok(count >= 3, `the demo catalog's three extensions (and any added) are cards: ${count}`)
    assert.equal(await panel.getByRole('table', { name: 'Domain extensions' }).count(), 0, 'the table is hidden')
    await cards
      .first()
      .getByRole('button', { name: /^Edit / })
      .waitFor()
    // No box in the tab scrolls sideways (a table too wide for its card).
    const wide = await panel.evaluate(
      (root) =>
        [...root.querySelectorAll('*')].filter(
          (el) => el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX),
        ).length,
    )
    assert.equal(wide, 0, 'a box in the tab scrolls sideways')
    await page.setViewportSize({ width: 1280, height: 800 })
    await panel.getByRole('table', { name: 'Domain extensions' }).waitFor()
    await page.context().close()
  })
})
