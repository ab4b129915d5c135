import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Info, Lock } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cx } from '@/lib/classNames'
import {
  cardFormErrors,
  confirmTestPayment,
  formatCardNumber,
  formatExpiry,
  type PaymentIntent,
  type StripeJs,
} from '../api/payments'

/** The message of a failed payment call, or fallback. */
export function paymentErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.error || fallback
  return error instanceof Error && error.message ? error.message : fallback
}

/**
 * Checkout: the card form of a PaymentIntent. With Stripe.js, Stripe's own
 * Payment Element collects the card; without it (demo mode, or Stripe.js
 * cannot load) the server's test path pays with a test card number. Used by
 * the payment demo and by the wallet's card deposits.
 */
export function CardForm({
  intent,
  stripe,
  publishableKey,
  description,
  processing,
  onProcessing,
  onSucceeded,
  onFailed,
  onError,
  onCancel,
}: {
  intent: PaymentIntent
  stripe: StripeJs | null
  publishableKey: string
  /** What is paid, under the Checkout title. */
  description: ReactNode
  processing: boolean
  onProcessing: () => void
  onSucceeded: () => void
  onFailed: (message: string) => void
  onError: (message: string) => void
  onCancel: () => void
}) {
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' })
  const [submitted, setSubmitted] = useState(false)
  const errors = submitted ? cardFormErrors(card) : {}
  const mountRef = useRef<HTMLDivElement>(null)
  const elementsRef = useRef<unknown>(null)

  // With Stripe.js, Stripe's own Payment Element collects the card.
  useEffect(() => {
    if (!stripe || !mountRef.current) return
    const elements = stripe.elements({ clientSecret: intent.clientSecret })
    const element = elements.create('payment')
    element.mount(mountRef.current)
    elementsRef.current = elements
    return () => element.destroy()
  }, [stripe, intent.clientSecret])

  const pay = async (event: FormEvent) => {
    event.preventDefault()
    if (processing) return
    try {
      if (stripe) {
        onProcessing()
        const result = await stripe.confirmPayment({
          elements: elementsRef.current,
          confirmParams: { return_url: `${window.location.origin}/payment-success` },
          redirect: 'if_required',
        })
        if (result.error) onFailed(result.error.message || 'An error occurred during payment')
        else onSucceeded()
        return
      }
      setSubmitted(true)
      if (Object.keys(cardFormErrors(card)).length > 0) return
      onProcessing()
      const outcome = await confirmTestPayment({
        paymentIntentId: intent.paymentIntentId,
        clientSecret: intent.clientSecret,
        cardNumber: card.number,
      })
      if (outcome.status === 'succeeded') onSucceeded()
      else onFailed(outcome.message || 'An error occurred during payment')
    } catch (error) {
      onError(paymentErrorText(error, 'An error occurred during payment'))
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Checkout</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {!stripe && (
          <div
            className="mb-5 flex gap-3 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900"
            role="note"
          >
            <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            <p>
              {intent.mode === 'demo' ? (
                <>
                  Demo mode: no Stripe key is configured, so the placeholder key{' '}
                  <code className="break-all font-mono text-xs">{publishableKey}</code> is used and Stripe.js is not
                  loaded. The payment runs through the server's test path, which decides the outcome by the test card
                  number.
                </>
              ) : (
                <>
                  Stripe.js could not be loaded in this browser, so the payment runs through the server's test path: the
                  server confirms it with Stripe using the matching test card.
                </>
              )}
            </p>
          </div>
        )}
        <form onSubmit={pay} noValidate className="space-y-4" aria-busy={processing}>
          {stripe ? (
            <div ref={mountRef} className="min-h-[8rem]" />
          ) : (
            <>
              <CardField
                label="Card number"
                autoComplete="cc-number"
                placeholder="4242 4242 4242 4242"
                value={card.number}
                error={errors.number}
                disabled={processing}
                onChange={(text) => setCard({ ...card, number: formatCardNumber(text) })}
              />
              <div className="grid grid-cols-2 gap-4">
                <CardField
                  label="Expiry"
                  autoComplete="cc-exp"
                  placeholder="MM / YY"
                  value={card.expiry}
                  error={errors.expiry}
                  disabled={processing}
                  onChange={(text) => setCard({ ...card, expiry: formatExpiry(text) })}
                />
                <CardField
                  label="CVC"
                  autoComplete="cc-csc"
                  placeholder="123"
                  value={card.cvc}
                  error={errors.cvc}
                  disabled={processing}
                  onChange={(text) => setCard({ ...card, cvc: text.replace(/\D/g, '').slice(0, 4) })}
                />
              </div>
            </>
          )}
          {processing && (
            <div className="flex items-center gap-3 text-sm text-slate-600" role="status" aria-live="polite">
              <Spinner className="h-4 w-4" label="Processing" />
              Processing your payment...
            </div>
          )}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={onCancel} disabled={processing}>
              Cancel
            </Button>
            <Button type="submit" disabled={processing}>
              <Lock className="h-4 w-4" aria-hidden />
              {processing ? 'Processing...' : 'Pay Now'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

/** One numeric field of the card form, with its label and error. */
function CardField({
  label,
  autoComplete,
  placeholder,
  value,
  error,
  disabled,
  onChange,
}: {
  label: string
  autoComplete: string
  placeholder: string
  value: string
  error?: string
  disabled: boolean
  onChange: (text: string) => void
}) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        inputMode="numeric"
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={value}
        disabled={disabled}
        aria-invalid={!!error}
        onChange={(e) => onChange(e.target.value)}
        className={cx(
          'mt-1 h-11 w-full rounded-lg border px-3 font-mono text-slate-900 focus:outline-none focus:ring-2 disabled:bg-slate-50',
          error
            ? 'border-red-400 focus:border-red-500 focus:ring-red-500/30'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
        )}
      />
      {error && <p className="mt-1 text-sm text-red-600">{error}</p>}
    </div>
  )
}
