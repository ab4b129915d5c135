import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

export type PaymentMode = PaymentConfig['mode']

export type PaymentConfig = Schema<'PaymentConfigBody'>

/** GET /api/payments/config: how card payments run on this server. */
export function paymentConfigQueryOptions() {
  return queryOptions({
    queryKey: ['/api/payments/config'],
    queryFn: getQueryFn<PaymentConfig>(),
  })
}

export type PaymentIntent = Schema<'PaymentIntentBody'>

export type CreatePaymentIntentInput = Schema<'CreatePaymentIntentInputBody'>

/** POST /api/create-payment-intent (spec section 7). */
export async function createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntent> {
  return unwrap(await apiRequest<ApiEnvelope<PaymentIntent>>('POST', '/api/create-payment-intent', input))
}

export type PaymentOutcome = Schema<'PaymentOutcomeBody'>

/** POST /api/payments/confirm-test: pays an intent with a test card on the server (no Stripe.js). */
export async function confirmTestPayment(
  input: Required<Schema<'ConfirmTestPaymentInputBody'>>,
): Promise<PaymentOutcome> {
  return unwrap(await apiRequest<ApiEnvelope<PaymentOutcome>>('POST', '/api/payments/confirm-test', input))
}

/** Used when the server has no publishable key (spec section 7: a demo placeholder key). */
export const PLACEHOLDER_PUBLISHABLE_KEY = 'pk_test_placeholder_demo_key'

/** The publishable key to use: the server's, or the placeholder with a console warning. */
export function publishableKeyOrPlaceholder(key: string | undefined): string {
  if (key) return key
  console.warn('No payment public key is configured; using a demo placeholder key.')
  return PLACEHOLDER_PUBLISHABLE_KEY
}

export interface TestCard {
  number: string
  brand: string
  outcome: string
  succeeds: boolean
}

/** Stripe's test cards, as the server's test path treats them. Any future expiry date and any CVC work. */
export const TEST_CARDS: TestCard[] = [
  { number: '4242 4242 4242 4242', brand: 'Visa', outcome: 'Succeeds', succeeds: true },
  { number: '5555 5555 5555 4444', brand: 'Mastercard', outcome: 'Succeeds', succeeds: true },
  { number: '3782 822463 10005', brand: 'American Express', outcome: 'Succeeds', succeeds: true },
  { number: '4000 0000 0000 0002', brand: 'Visa', outcome: 'Declined: generic decline', succeeds: false },
  { number: '4000 0000 0000 9995', brand: 'Visa', outcome: 'Declined: insufficient funds', succeeds: false },
  { number: '4000 0000 0000 9987', brand: 'Visa', outcome: 'Declined: lost card', succeeds: false },
  { number: '4000 0000 0000 0069', brand: 'Visa', outcome: 'Declined: expired card', succeeds: false },
  { number: '4000 0000 0000 0127', brand: 'Visa', outcome: 'Declined: incorrect CVC', succeeds: false },
  { number: '4000 0000 0000 0119', brand: 'Visa', outcome: 'Declined: processing error', succeeds: false },
]

/** The subset of Stripe.js the demo uses. */
export interface StripeJs {
  elements(options: { clientSecret: string }): {
    create(type: 'payment'): { mount(el: HTMLElement): void; destroy(): void }
  }
  confirmPayment(options: {
    elements: unknown
    confirmParams: { return_url: string }
    redirect: 'if_required'
  }): Promise<{ error?: { message?: string }; paymentIntent?: { status: string } }>
}

declare global {
  interface Window {
    Stripe?: (key: string) => StripeJs
  }
}

const STRIPE_JS_URL = 'https://js.stripe.com/v3/'

/**
 * Loads Stripe.js (which must come from js.stripe.com) and returns it, or
 * null when it cannot load in time: no internet, or a blocked script.
 */
export function loadStripeJs(publishableKey: string, timeoutMs = 4000): Promise<StripeJs | null> {
  if (window.Stripe) return Promise.resolve(window.Stripe(publishableKey))
  return new Promise((resolve) => {
    const script = document.createElement('script')
    const timer = window.setTimeout(() => finish(false), timeoutMs)
    function finish(loaded: boolean) {
      window.clearTimeout(timer)
      script.onload = script.onerror = null
      resolve(loaded && window.Stripe ? window.Stripe(publishableKey) : null)
    }
    script.src = STRIPE_JS_URL
    script.async = true
    script.onload = () => finish(true)
    script.onerror = () => finish(false)
    document.head.appendChild(script)
  })
}

/** Digits only, grouped in fours as people read card numbers. */
export function formatCardNumber(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 19)
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** 'MM / YY' from whatever was typed. */
export function formatExpiry(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4)
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits
}

/** The card form's checks; the server decides the outcome by the card number. */
export function cardFormErrors(card: { number: string; expiry: string; cvc: string }, now = new Date()) {
  const errors: { number?: string; expiry?: string; cvc?: string } = {}
  const digits = card.number.replace(/\D/g, '')
  if (digits.length < 12) errors.number = 'Enter a card number'
  const m = /^(\d{2}) \/ (\d{2})$/.exec(card.expiry)
  if (!m) errors.expiry = 'Enter the expiry as MM / YY'
  else {
    const month = Number(m[1])
    const year = 2000 + Number(m[2])
    if (month < 1 || month > 12) errors.expiry = 'Enter a month from 01 to 12'
    else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
      errors.expiry = 'Your card has expired'
  }
  if (!/^\d{3,4}$/.test(card.cvc)) errors.cvc = 'Enter the 3 or 4 digit security code'
  return errors
}
