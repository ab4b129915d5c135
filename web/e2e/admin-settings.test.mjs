// The admin dashboard's Site Settings and Payment Gateways tabs, in Chromium
// against a real `nameport serve --demo`: Quick Setup adds the common
// branding settings once and then says they exist; the payment mode and
// where it is configured (demo payments: a server flag) are shown, Stripe is
// not offered as a gateway (its keys are server flags), and a PayPal gateway
// is added (inactive, test mode) and configured with its secret kept masked,
// but cannot be enabled: its payments are not available yet.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })
// Set NAMEPORT_SHOTS to a folder to keep screenshots of both tabs.
const shots = process.env.NAMEPORT_SHOTS

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

describe('Site Settings tab', () => {
  test('Quick Setup adds the common branding settings, then says they are configured', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openTab(page, 'Site Settings')
    await panel.getByRole('button', { name: 'Quick Setup' }).click()
    for (const key of ['site_name', 'logo_url', 'favicon_url', 'primary_color']) {
      await panel.getByText(key, { exact: true }).waitFor()
    }
    await panel.getByRole('button', { name: 'Quick Setup' }).click()
    await page.getByText('Common settings are already configured', { exact: true }).waitFor()

    // The settings are public: a visitor's request lists them, without the gateways.
    const res = await page.request.get('/api/site-settings')
    const keys = (await res.json()).data.map((s) => s.key)
    assert.ok(keys.includes('primary_color'), keys.join(','))

    if (shots) {
      await page.screenshot({ path: join(shots, 'site-settings-1280.png'), fullPage: true })
      await page.setViewportSize({ width: 375, height: 800 })
      await page.screenshot({ path: join(shots, 'site-settings-375.png'), fullPage: true })
    }
    await page.context().close()
  })
})

describe('Payment Gateways tab', () => {
  test('an admin sees where payments are configured, then adds PayPal and configures it, but cannot enable it', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openTab(page, 'Payment Gateways')
    await panel.getByText('No payment gateways configured yet.').waitFor()

    // The demo server runs with --demo-payments and no Stripe keys: the
    // screen says so, from the server, and offers no Stripe key fields.
    const mode = panel.getByRole('region', { name: 'Payment mode' })
    await mode.getByText('Demo (no real payments)', { exact: true }).waitFor()
    await mode.getByText('Demo payments are server configuration: --demo-payments (or --demo).', { exact: true }).waitFor()
    const types = await panel.getByLabel('Add a gateway').locator('option').allTextContents()
    assert.ok(!types.includes('Stripe'), `gateway types ${types}`)

    await panel.getByLabel('Add a gateway').selectOption({ label: 'PayPal' })
    await panel.getByRole('button', { name: 'Add Gateway' }).click()
    await page.getByText('Payment gateway added successfully', { exact: true }).waitFor()
    const list = panel.getByRole('list', { name: 'Payment gateways' })
    await list.getByText('Inactive', { exact: true }).waitFor()
    await list.getByText('Test mode', { exact: true }).waitFor()

    const form = panel.getByRole('form', { name: 'Configure PayPal' })
    await form.getByLabel('Client ID *').fill('client-e2e')
    await form.getByLabel('Client Secret *').fill('pp_e2e_secret_9876')
    await form.getByRole('button', { name: 'Save Configuration' }).click()
    await form.waitFor({ state: 'detached' })

    // PayPal has no provider yet: the screen says so and its switch is off for good.
    await list.getByText('Not available yet', { exact: true }).waitFor()
    assert.ok(await panel.getByRole('switch', { name: 'Enable PayPal' }).isDisabled())

    // The secret comes back masked, even to the admin.
    await panel.getByRole('button', { name: 'Configure' }).click()
    await panel.getByText('Stored secret ends in 9876; leave it as is to keep it.').waitFor()
    const res = await page.request.get('/api/site-settings')
    const raw = JSON.stringify(await res.json())
    assert.ok(!raw.includes('pp_e2e_secret_9876'), 'the secret never leaves the server')

    if (shots) {
      await page.screenshot({ path: join(shots, 'payment-gateways-1280.png'), fullPage: true })
      await page.setViewportSize({ width: 375, height: 800 })
      await page.screenshot({ path: join(shots, 'payment-gateways-375.png'), fullPage: true })
    }
    await page.context().close()
  })
})
