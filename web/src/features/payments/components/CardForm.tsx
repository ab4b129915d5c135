import { forwardRef, useEffect, useRef, type InputHTMLAttributes, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { Info, Lock } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import {
  cardFormErrors,
  confirmTestPayment,
  formatCardNumber,
  formatExpiry,
  type PaymentIntent,
  type StripeJs,
} from '../api/payments'

type CardValues = { number: string; expiry: string; cvc: string }

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
  /** What is paid, under the Checkout title. */
  description: ReactNode
  processing: boolean
  onProcessing: () => void
  onSucceeded: () => void
  onFailed: (message: string) => void
  onError: (message: string) => void
  onCancel: () => void
}) {
  // The test path's card fields; with Stripe.js, Stripe's own element checks the card.
  const stripeRef = useRef(stripe)
  stripeRef.current = stripe
  const form = useForm<CardValues>({
    defaultValues: { number: '', expiry: '', cvc: '' },
    resolver: (values) => {
      const found = stripeRef.current ? {} : cardFormErrors(values)
      const errors = Object.fromEntries(
        Object.entries(found).map(([field, message]) => [field, { type: 'validate', message }]),
      )
      return { values: Object.keys(errors).length > 0 ? {} : values, errors }
    },
  })
  const { errors } = form.formState
  // Each field keeps the shape people read: 4242 4242 ..., MM / YY, digits only.
  const formatted = (field: keyof CardValues, format: (text: string) => string) =>
    form.register(field, {
      onChange: (event) =>
        form.setValue(field, format(event.target.value), { shouldValidate: form.formState.isSubmitted }),
    })
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

  const pay = async (card: CardValues) => {
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
                  Test mode: no real card is charged. Pay with one of the test cards listed on this page; the card
                  number decides whether the payment succeeds.
                </>
              ) : (
                <>
                  The secure card form could not be loaded in this browser, so this payment is checked with the test
                  card number you enter. No real card is charged.
                </>
              )}
            </p>
          </div>
        )}
        <form onSubmit={form.handleSubmit(pay)} noValidate className="space-y-4" aria-busy={processing}>
          {stripe ? (
            <div ref={mountRef} className="min-h-[8rem]" />
          ) : (
            <>
              <CardField
                label="Card number"
                autoComplete="cc-number"
                placeholder="4242 4242 4242 4242"
                error={errors.number?.message}
                disabled={processing}
                {...formatted('number', formatCardNumber)}
              />
              <div className="grid grid-cols-2 gap-4">
                <CardField
                  label="Expiry"
                  autoComplete="cc-exp"
                  placeholder="MM / YY"
                  error={errors.expiry?.message}
                  disabled={processing}
                  {...formatted('expiry', formatExpiry)}
                />
                <CardField
                  label="CVC"
                  autoComplete="cc-csc"
                  placeholder="123"
                  error={errors.cvc?.message}
                  disabled={processing}
                  {...formatted('cvc', (text) => text.replace(/\D/g, '').slice(0, 4))}
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
const CardField = forwardRef<
  HTMLInputElement,
  InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string }
>(function CardField({ label, error, ...props }, ref) {
  return (
    <Field label={label} error={error}>
      {(ids) => <Input ref={ref} {...ids} inputMode="numeric" className="h-11 font-mono" {...props} />}
    </Field>
  )
})
