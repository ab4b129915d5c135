// Deposits on a server that takes real payments (--demo for the catalogue
// and the demo admin, --demo-payments=false for the payment rules), in
// Chromium: with no payment method the wallet says deposits are
// unavailable; once the admin enables bank transfers, a deposit waits with
// the bank details until the admin confirms it on the Payment Gateways tab.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after, serverArgs: ['--demo-payments=false'] })
// Set NAMEPORT_SHOTS to a folder to keep screenshots.
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

describe('deposits without demo payments', () => {
  test('unavailable without a payment method; a bank transfer waits for the admin, who confirms it', async () => {
    const user = await app.newPage()
    const name = uniqueName('payer')
    await signUp(user, name)
    await user.goto('/wallet?tab=deposit')
    await user.getByText('Deposits are unavailable', { exact: true }).waitFor()
    assert.equal(await user.getByLabel('Amount (USD)').count(), 0)
    await shoot(user, 'wallet-deposits-unavailable')

    const admin = await app.newPage()
    await loginDemoAdmin(admin)
    const gateways = JSON.stringify([
      {
        id: 'bank_transfer',
        name: 'Bank Transfer',
        active: true,
        testMode: false,
        settings: {
          account_name: 'Nameport Ltd',
          account_number: '12-3456-7890123-00',
          bank_name: 'Kiwi Bank',
          routing_number: '123456',
          instructions: 'Put your username in the reference.',
        },
      },
    ])
    const res = await admin.request.post('/api/site-settings', {
      data: { key: 'payment_gateways', value: gateways, category: 'payment', isPublic: false },
    })
    assert.equal(res.status(), 201, await res.text())

    await user.reload()
    const method = user.getByRole('radio', { name: 'Bank Transfer' })
    await method.waitFor({ state: 'attached' })
    // Until the deposit options load, every method is offered (credit card
    // picked); once they have, only the bank transfer is, and it is picked.
    await user.getByRole('radio', { name: 'Credit Card' }).waitFor({ state: 'detached' })
    assert.ok(await method.isChecked())
    await user.getByRole('button', { name: 'Deposit $50.00' }).click()
    await user.getByRole('heading', { name: 'Deposit pending' }).waitFor()
    await user.getByText('12-3456-7890123-00', { exact: true }).waitFor()
    await shoot(user, 'wallet-bank-transfer-pending')

    await admin.goto('/admin-dashboard')
    await admin.getByRole('tab', { name: 'Payment Gateways' }).click()
    const panel = admin.getByRole('tabpanel', { name: 'Payment Gateways' })
    const pending = panel.getByRole('list', { name: 'Pending bank transfers' })
    await pending.getByText(`by ${name}`, { exact: true }).waitFor()
    await shoot(admin, 'admin-pending-deposits')
    await pending.getByRole('button', { name: /^Confirm deposit/ }).click()
    await admin.getByText('Deposit confirmed', { exact: true }).waitFor()
    await panel.getByText('No bank transfers are waiting for confirmation.').waitFor()

    await user.goto('/wallet')
    await user.getByRole('region', { name: 'Current balance' }).getByText('$50.00', { exact: true }).first().waitFor()
    await user.context().close()
    await admin.context().close()
  })
})
