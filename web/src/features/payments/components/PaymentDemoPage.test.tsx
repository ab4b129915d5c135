import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import { cardFormErrors, formatCardNumber, formatExpiry } from '../api/payments'

function servePayments(options: { setupError?: string } = {}) {
  const confirmations: unknown[] = []
  const intents: unknown[] = []
  server.use(
    http.get('/api/payments/config', () =>
      HttpResponse.json({ success: true, data: { mode: 'demo', publishableKey: '', testMode: true } }),
    ),
    http.post('/api/create-payment-intent', async ({ request }) => {
      intents.push(await request.json())
      if (options.setupError) return HttpResponse.json({ success: false, error: options.setupError }, { status: 422 })
      return HttpResponse.json({
        success: true,
        data: { clientSecret: 'pi_demo_1_secret_2', paymentIntentId: 'pi_demo_1', mode: 'demo', publishableKey: '' },
      })
    }),
    http.post('/api/payments/confirm-test', async ({ request }) => {
      const body = (await request.json()) as { cardNumber: string }
      confirmations.push(body)
      const ok = body.cardNumber.replace(/\s/g, '') === '4242424242424242'
      return HttpResponse.json({
        success: true,
        data: ok
          ? { status: 'succeeded', message: 'Thank you for your payment!' }
          : { status: 'failed', message: 'Your card was declined.' },
      })
    }),
  )
  return { confirmations, intents }
}

async function toCheckout(amount?: string) {
  const app = renderApp('/payment-demo', { user: endUser })
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  await app.events.click(await screen.findByRole('button', { name: 'Connect' }))
  const field = await screen.findByLabelText('Amount (USD)')
  expect(field).toHaveValue(10)
  if (amount !== undefined) {
    await app.events.clear(field)
    if (amount) await app.events.type(field, amount)
  }
  await app.events.click(screen.getByRole('button', { name: 'Proceed to Checkout' }))
  return { ...app, warn }
}

async function payWith(events: Awaited<ReturnType<typeof toCheckout>>['events'], card: string) {
  await events.type(await screen.findByLabelText('Card number'), card)
  await events.type(screen.getByLabelText('Expiry'), '1234')
  await events.type(screen.getByLabelText('CVC'), '123')
  await events.click(screen.getByRole('button', { name: 'Pay Now' }))
}

// Whole-flow tests type a card and click through several screens: give them
// room on a busy machine.
describe('payment demo', { timeout: 20_000 }, () => {
  it('pays with a test card through the server test path in demo mode, keeping the placeholder key out of sight', async () => {
    const { confirmations, intents } = servePayments()
    const { events, warn } = await toCheckout()
    expect(await screen.findByText(/Test mode: no real card is charged/)).toBeInTheDocument()
    expect(screen.queryByText(/pk_test_placeholder_demo_key/)).not.toBeInTheDocument()
    expect(warn).toHaveBeenCalled()
    expect(intents).toEqual([
      { amount: 10, productName: 'Nameport payment demo', metadata: { source: 'payment-demo' } },
    ])
    await payWith(events, '4242424242424242')
    expect(await screen.findByRole('heading', { name: 'Payment Successful' })).toBeInTheDocument()
    expect(screen.getAllByText('Thank you for your payment!').length).toBeGreaterThan(0)
    expect(confirmations).toEqual([
      { paymentIntentId: 'pi_demo_1', clientSecret: 'pi_demo_1_secret_2', cardNumber: '4242 4242 4242 4242' },
    ])
  })

  it('shows a decline as Payment Failed and lets the payer try another card', async () => {
    servePayments()
    const { events } = await toCheckout('25')
    await payWith(events, '4000000000000002')
    expect(await screen.findByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument()
    expect(screen.getAllByText('Your card was declined.').length).toBeGreaterThan(0)
    await events.click(screen.getByRole('button', { name: 'Try another card' }))
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument()
  })

  it('refuses an amount of 0 with the spec message', async () => {
    const { intents } = servePayments()
    await toCheckout('0')
    expect((await screen.findAllByText('Please enter a valid amount greater than 0')).length).toBeGreaterThan(0)
    expect(screen.getAllByText('Invalid Amount').length).toBeGreaterThan(0)
    expect(intents).toEqual([])
  })

  it('shows Payment Setup Failed with the server message and Go Back', async () => {
    servePayments({ setupError: 'The minimum payment is $0.50' })
    const { events } = await toCheckout('0.25')
    expect(await screen.findByRole('heading', { name: 'Payment Setup Failed' })).toBeInTheDocument()
    expect(screen.getAllByText('The minimum payment is $0.50').length).toBeGreaterThan(0)
    await events.click(screen.getByRole('button', { name: 'Go Back' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Proceed to Checkout' })).toBeInTheDocument())
  })

  it('checks the card form before paying', async () => {
    const { confirmations } = servePayments()
    const { events } = await toCheckout()
    await events.click(await screen.findByRole('button', { name: 'Pay Now' }))
    expect(screen.getByText('Enter a card number')).toBeInTheDocument()
    expect(screen.getByText('Enter the expiry as MM / YY')).toBeInTheDocument()
    expect(confirmations).toEqual([])
  })

  it('lists the test cards', async () => {
    servePayments()
    renderApp('/payment-demo', { user: endUser })
    expect(await screen.findByText('4242 4242 4242 4242')).toBeInTheDocument()
    expect(screen.getByText('4000 0000 0000 0002')).toBeInTheDocument()
    expect(screen.getByText('Declined: insufficient funds')).toBeInTheDocument()
  })
})

describe('payment success page', () => {
  it('thanks the payer after a redirect', async () => {
    renderApp('/payment-success?payment_intent=pi_9&redirect_status=succeeded', { user: endUser })
    expect(await screen.findByRole('heading', { name: 'Payment Successful' })).toBeInTheDocument()
    expect(screen.getByText('Thank you for your payment!')).toBeInTheDocument()
  })

  it('says when the payment failed', async () => {
    renderApp('/payment-success?redirect_status=failed', { user: endUser })
    expect(await screen.findByRole('heading', { name: 'Payment Failed' })).toBeInTheDocument()
    expect(screen.getByText('An error occurred during payment')).toBeInTheDocument()
  })
})

describe('card form helpers', () => {
  it('formats and checks card details', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242')
    expect(formatExpiry('1234')).toBe('12 / 34')
    const now = new Date('2026-05-01')
    expect(cardFormErrors({ number: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123' }, now)).toEqual({})
    expect(cardFormErrors({ number: '4242', expiry: '04 / 26', cvc: '1' }, now)).toEqual({
      number: 'Enter a card number',
      expiry: 'Your card has expired',
      cvc: 'Enter the 3 or 4 digit security code',
    })
  })
})
