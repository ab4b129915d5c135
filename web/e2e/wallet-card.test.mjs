// A card deposit on a server that takes cards through Stripe (stripe-mock,
// Stripe's API fake): the wallet opens the card form and pays through the
// server's test path (Stripe.js cannot load offline); Stripe's signed
// webhook then completes the deposit, as it does in production.
import { createHmac } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { signUp, STRIPE_WEBHOOK_SECRET, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after, stripe: true })

/** Posts a payment_intent event to the server as Stripe does, signed. */
async function sendStripeEvent(type, paymentIntentId) {
  const payload = JSON.stringify({
    id: `evt_${paymentIntentId}_${type}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: paymentIntentId, object: 'payment_intent', amount: 4000, currency: 'usd' } },
  })
  const t = Math.floor(Date.now() / 1000)
  const v1 = createHmac('sha256', STRIPE_WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex')
  const res = await fetch(`${app.baseURL}/api/webhooks/stripe`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': `t=${t},v1=${v1}` },
    body: payload,
  })
  assert.equal(res.status, 200, await res.text())
}

describe('card deposits through Stripe', () => {
  test('the wallet opens the card form, and the confirmation from Stripe completes the deposit', async () => {
    const page = await app.newPage()
    const username = uniqueName('carder')
    await signUp(page, username)

    await page.goto('/wallet?tab=deposit')
    await page.getByLabel('Amount (USD)').fill('40')
    const deposited = page.waitForResponse((r) => r.url().endsWith('/api/wallet/deposit'))
    await page.getByRole('button', { name: 'Deposit $40.00' }).click()
    const { data } = await (await deposited).json()
    assert.equal(data.transaction.status, 'pending')
    assert.match(data.paymentIntentId, /^pi_/)

    // The deposit waits for its card.
    await page.getByText('Pay $40.00 into your Nameport wallet.').waitFor({ timeout: 15_000 })
    await page.getByLabel('Card number').fill('4242424242424242')
    await page.getByLabel('Expiry').fill('12 / 40')
    await page.getByLabel('CVC').fill('123')
    const confirmed = page.waitForResponse((r) => r.url().endsWith('/api/payments/confirm-test'))
    await page.getByRole('button', { name: 'Pay Now' }).click()
    // The server asked Stripe to confirm the intent with the test card.
    // stripe-mock answers every confirmation with its fixture (status
    // requires_payment_method), which the form shows as a failed payment.
    const answer = await confirmed
    assert.equal(answer.status(), 200)
    const outcome = (await answer.json()).data
    assert.equal(outcome.status, 'failed', JSON.stringify(outcome))
    assert.match(outcome.message, /requires_payment_method/)
    // The deposit is still waiting: the card form stays for another card.
    await page.getByRole('button', { name: 'Pay Now' }).waitFor()
    await page.getByText('Pay $40.00 into your Nameport wallet.').waitFor()

    // Stripe reports the payment succeeded: the deposit completes, once.
    await sendStripeEvent('payment_intent.succeeded', data.paymentIntentId)
    await sendStripeEvent('payment_intent.succeeded', data.paymentIntentId)
    await page.goto('/wallet?tab=transactions')
    const row = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first()
    await page.waitForFunction(
      () => /Completed/.test(document.querySelector('table tbody tr')?.textContent ?? ''),
      null,
      {
        timeout: 15_000,
        polling: 500,
      },
    )
    const text = await row.innerText()
    assert.match(text, /Deposit by credit card/i)
    assert.match(text, /\+\$40\.00/)
    await page.goto('/wallet')
    await page.getByRole('region', { name: 'Current balance' }).getByText('$40.00').first().waitFor()
    await page.context().close()
  })
})
