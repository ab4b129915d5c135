// The payment demo, clicked through in Chromium against a real server
// started with --demo and no Stripe keys: the payment runs through the
// server's test path, and the outcome follows Stripe's test card numbers.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function loginDemoUser(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

/** Connects, keeps or sets the amount, and opens checkout. */
async function openCheckout(page, amount) {
  await page.goto('/payment-demo')
  await page.getByRole('heading', { name: 'Payment Demo' }).waitFor()
  await page.getByText('How it works').waitFor()
  await page.getByRole('button', { name: 'Connect' }).click()
  const field = page.getByLabel('Amount (USD)')
  assert.equal(await field.inputValue(), '10', 'the amount starts at 10')
  if (amount !== undefined) await field.fill(String(amount))
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
  await page.getByRole('heading', { name: 'Checkout' }).waitFor()
  await page.getByText(/Test mode: no real card is charged/).waitFor()
}

async function payWith(page, cardNumber) {
  await page.getByLabel('Card number').fill(cardNumber)
  await page.getByLabel('Expiry').fill('12 / 34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: 'Pay Now' }).click()
}

describe('payment demo', () => {
  test('a payment with 4242 4242 4242 4242 succeeds', async () => {
    const page = await app.newPage()
    await loginDemoUser(page)
    await openCheckout(page)
    assert.ok(await page.getByText('$10.00', { exact: true }).isVisible())
    await payWith(page, '4242 4242 4242 4242')
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor()
    // The toast and the success screen both thank the payer.
    assert.ok((await page.getByText('Thank you for your payment!').count()) >= 1)
    await page.getByRole('button', { name: 'Make another payment' }).click()
    await page.getByRole('button', { name: 'Proceed to Checkout' }).waitFor()
  })

  test('a payment with 4000 0000 0000 0002 is declined, and another card then pays it', async () => {
    const page = await app.newPage()
    await loginDemoUser(page)
    await openCheckout(page, 25.5)
    assert.ok(await page.getByText('$25.50', { exact: true }).isVisible())
    await payWith(page, '4000 0000 0000 0002')
    await page.getByRole('heading', { name: 'Payment Failed' }).waitFor()
    assert.ok((await page.getByText('Your card was declined.').count()) >= 1)
    await page.getByRole('button', { name: 'Try another card' }).click()
    await payWith(page, '4242424242424242')
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor()
  })

  test('an amount of 0 is refused, and a visitor is sent to log in', async () => {
    const page = await app.newPage()
    await page.goto('/payment-demo')
    await page.waitForURL((url) => url.pathname === '/login')
    await loginDemoUser(page)
    await page.goto('/payment-demo')
    await page.getByRole('button', { name: 'Connect' }).click()
    await page.getByLabel('Amount (USD)').fill('0')
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click()
    // (Radix repeats a toast's text for screen readers: take the first.)
    await page.getByText('Please enter a valid amount greater than 0').first().waitFor()
    assert.ok(await page.getByRole('button', { name: 'Proceed to Checkout' }).isVisible())
  })

  test('/payment-success thanks the payer', async () => {
    const page = await app.newPage()
    await page.goto('/payment-success?payment_intent=pi_123&redirect_status=succeeded')
    await page.getByRole('heading', { name: 'Payment Successful' }).waitFor()
    await page.getByText('Thank you for your payment!').waitFor()
  })
})
