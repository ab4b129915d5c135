// Payment Gateways are real (issue 26, item 4), in Chromium against a real
// `nameport serve --demo`: the wallet offers only what works (a card, paid at
// once by demo payments) and no PayPal or UPI; a PayPal deposit over the API
// is refused; the admin enables the Bank Transfer gateway and the wallet
// offers it with its instructions, the deposit waiting for the admin; the
// admin disables it and it is gone from the wallet. Set NAMEPORT_SHOTS to a
// folder to keep screenshots of the wallet's deposit form.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const shots = process.env.NAMEPORT_SHOTS

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

async function shoot(page, name) {
  if (!shots) return
  await page.screenshot({ path: join(shots, `${name}-1280.png`), fullPage: true })
  await page.setViewportSize({ width: 375, height: 800 })
  await page.screenshot({ path: join(shots, `${name}-375.png`), fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })
}

describe('payment gateways', () => {
  test('the wallet offers only working methods; a bank transfer appears when enabled and goes when disabled', async () => {
    const user = await app.newPage()
    await signUp(user, uniqueName('gw'))

    // The server refuses PayPal over the API, whatever the page shows.
    const refused = await user.request.post('/api/wallet/deposit', { data: { amount: 25, paymentMethod: 'paypal' } })
    assert.equal(refused.status(), 422)
    assert.equal((await refused.json()).error, 'Deposits by PayPal are not available. Please choose credit card.')

    await user.goto('/wallet?tab=deposit')
    await user.getByLabel('Amount (USD)').waitFor()
    await user.getByRole('radio', { name: 'PayPal' }).waitFor({ state: 'detached' })
    await user.getByRole('radio', { name: 'UPI' }).waitFor({ state: 'detached' })
    await user.getByRole('radio', { name: 'Bank Transfer' }).waitFor({ state: 'detached' })
    assert.ok(await user.getByRole('radio', { name: 'Credit Card' }).isChecked())
    await shoot(user, 'wallet-deposit-card-only')

    // The admin enables bank transfers in the Payment Gateways tab.
    const admin = await app.newPage()
    await loginDemoAdmin(admin)
    await admin.goto('/admin-dashboard')
    await admin.getByRole('tab', { name: 'Payment Gateways' }).click()
    const panel = admin.getByRole('tabpanel', { name: 'Payment Gateways' })
    await panel.getByLabel('Add a gateway').selectOption({ label: 'Bank Transfer' })
    await panel.getByRole('button', { name: 'Add Gateway' }).click()
    const form = panel.getByRole('form', { name: 'Configure Bank Transfer' })
    await form.getByLabel('Account Name *').fill('Acme Names Ltd')
    await form.getByLabel('Account Number *').fill('12-3456-7890123-00')
    await form.getByLabel('Bank Name *').fill('Kiwi Bank')
    await form.getByLabel('Routing Number *').fill('123456')
    await form.getByLabel('Instructions').fill('Put your username in the reference.')
    await form.getByRole('button', { name: 'Save Configuration' }).click()
    await form.waitFor({ state: 'detached' })
    const toggle = panel.getByRole('switch', { name: 'Enable Bank Transfer' })
    await toggle.click()
    await admin.getByText('Bank Transfer is now enabled for customer payments.', { exact: true }).waitFor()

    await user.reload()
    const bank = user.getByRole('radio', { name: 'Bank Transfer' })
    await bank.waitFor({ state: 'attached' })
    // The radio is visually hidden inside its card: pick the card.
    await user.locator('label').filter({ has: bank }).click()
    assert.ok(await bank.isChecked())
    await user.getByText('You pay by bank transfer to Kiwi Bank', { exact: false }).waitFor()
    await shoot(user, 'wallet-deposit-bank-transfer')
    await user.getByRole('button', { name: 'Deposit $50.00' }).click()
    await user.getByRole('heading', { name: 'Deposit pending' }).waitFor()
    await user.getByText('Put your username in the reference.').waitFor()
    await user.getByText('12-3456-7890123-00', { exact: true }).waitFor()

    // Disabled again: gone from the wallet, and refused over the API.
    await toggle.click()
    await admin.getByText('Bank Transfer is now disabled for customer payments.', { exact: true }).waitFor()
    await user.goto('/wallet?tab=deposit')
    await user.getByLabel('Amount (USD)').waitFor()
    await user.getByRole('radio', { name: 'Bank Transfer' }).waitFor({ state: 'detached' })
    const after = await user.request.post('/api/wallet/deposit', {
      data: { amount: 25, paymentMethod: 'bank_transfer' },
    })
    assert.equal(after.status(), 422)

    // The audit log says what changed in words, not the gateway list's JSON.
    await admin.getByRole('tab', { name: 'Users' }).click()
    const latest = admin
      .getByRole('tabpanel', { name: 'Users' })
      .getByRole('list', { name: 'Audit log' })
      .getByRole('listitem')
      .first()
    await latest.getByText('changed site setting', { exact: true }).waitFor()
    assert.deepEqual(await latest.getByRole('term').allTextContents(), ['value › Bank Transfer › active'])
    assert.deepEqual(await latest.getByRole('definition').allTextContents(), ['on→off'])

    await admin.context().close()
    await user.context().close()
  })
})
