import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ArrowLeft, CheckCircle2, XCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { formatUsd } from '@/lib/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import {
  createPaymentIntent,
  loadStripeJs,
  paymentConfigQueryOptions,
  publishableKeyOrPlaceholder,
  type PaymentIntent,
  type StripeJs,
} from '../api/payments'
import { CardForm, paymentErrorText } from './CardForm'
import { AmountStep, ConnectStep, Outcome, StatusCard, TestCardList } from './PaymentDemoSteps'

/** Spec section 9: the payment demo's default amount. */
export const DEFAULT_PAYMENT_AMOUNT = 10

type Step =
  | { name: 'connect' }
  | { name: 'amount' }
  | { name: 'loading' }
  | { name: 'error'; message: string }
  | { name: 'form'; intent: PaymentIntent; stripe: StripeJs | null; key: string }
  | { name: 'processing'; intent: PaymentIntent; stripe: StripeJs | null; key: string }
  | { name: 'success'; intent: PaymentIntent }
  | { name: 'failure'; intent: PaymentIntent; stripe: StripeJs | null; key: string; message: string }

/** /payment-demo: connect, amount, checkout, card form, processing, then success or failure. */
export function PaymentDemoPage() {
  useDocumentTitle('Payment Demo')
  const [step, setStep] = useState<Step>({ name: 'connect' })
  const [amountText, setAmountText] = useState(String(DEFAULT_PAYMENT_AMOUNT))
  const [connecting, setConnecting] = useState(false)
  const config = useQuery(paymentConfigQueryOptions())
  const amount = Number(amountText)
  const mode = config.data?.mode ?? 'demo'

  const connect = () => {
    // The provider connection is a mock: it always proceeds.
    setConnecting(true)
    window.setTimeout(() => {
      setConnecting(false)
      setStep({ name: 'amount' })
    }, 400)
  }

  const checkout = async (text: string) => {
    setAmountText(text)
    const amount = Number(text)
    if (!(amount > 0) || !Number.isFinite(amount)) {
      toast({
        variant: 'destructive',
        title: 'Invalid Amount',
        description: 'Please enter a valid amount greater than 0',
      })
      return
    }
    setStep({ name: 'loading' })
    try {
      const intent = await createPaymentIntent({
        amount: Math.round(amount * 100) / 100,
        productName: 'Nameport payment demo',
        metadata: { source: 'payment-demo' },
      })
      const key = publishableKeyOrPlaceholder(intent.publishableKey)
      // Stripe.js runs only with a real key; without one (demo mode), or when
      // it cannot load (no internet), the server's test path pays instead.
      const stripe = intent.mode === 'stripe' && intent.publishableKey ? await loadStripeJs(key) : null
      if (!stripe && intent.mode === 'stripe' && config.data && !config.data.testMode) {
        throw new Error('Stripe.js could not be loaded, and test payments are not available with a live key.')
      }
      setStep({ name: 'form', intent, stripe, key })
    } catch (error) {
      const message = paymentErrorText(error, 'There was a problem setting up the payment')
      toast({ variant: 'destructive', title: 'Payment Setup Failed', description: message })
      setStep({ name: 'error', message })
    }
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="mb-8">
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Payment Demo</h1>
        <p className="mt-1 text-slate-600">
          Try a card payment from start to finish with test cards. No real money moves.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {step.name === 'connect' && <ConnectStep connecting={connecting} onConnect={connect} />}
          {step.name === 'amount' && (
            <AmountStep amountText={amountText} onSubmit={(text) => void checkout(text)} mode={mode} />
          )}
          {step.name === 'loading' && (
            <StatusCard>
              <Spinner className="h-10 w-10" label="Loading" />
              <p className="mt-4 text-lg font-semibold text-slate-900">Setting up your payment...</p>
            </StatusCard>
          )}
          {step.name === 'error' && (
            <StatusCard>
              <Outcome icon={AlertCircle} tone="red" title="Payment Setup Failed" text={step.message} />
              <Button className="mt-8" variant="outline" onClick={() => setStep({ name: 'amount' })}>
                <ArrowLeft className="h-4 w-4" aria-hidden />
                Go Back
              </Button>
            </StatusCard>
          )}
          {(step.name === 'form' || step.name === 'processing') && (
            <CardForm
              key={step.intent.paymentIntentId}
              description={
                <>
                  Pay <span className="font-semibold text-slate-900">{formatUsd(amount)}</span> for the Nameport payment
                  demo.
                </>
              }
              intent={step.intent}
              stripe={step.stripe}
              processing={step.name === 'processing'}
              onProcessing={() => setStep({ ...step, name: 'processing' })}
              onSucceeded={() => {
                toast({ title: 'Payment Successful', description: 'Thank you for your payment!' })
                setStep({ name: 'success', intent: step.intent })
              }}
              onFailed={(message) => {
                toast({ variant: 'destructive', title: 'Payment Failed', description: message })
                setStep({ ...step, name: 'failure', message })
              }}
              onError={(message) => {
                toast({ variant: 'destructive', title: 'Payment Error', description: message })
                setStep({ ...step, name: 'form' })
              }}
              onCancel={() => setStep({ name: 'amount' })}
            />
          )}
          {step.name === 'success' && (
            <StatusCard>
              <Outcome icon={CheckCircle2} tone="green" title="Payment Successful" text="Thank you for your payment!" />
              <p className="mt-3 text-sm text-slate-500">
                {formatUsd(amount)} paid · <span className="font-mono text-xs">{step.intent.paymentIntentId}</span>
              </p>
              <Button className="mt-8" onClick={() => setStep({ name: 'amount' })}>
                Make another payment
              </Button>
            </StatusCard>
          )}
          {step.name === 'failure' && (
            <StatusCard>
              <Outcome icon={XCircle} tone="red" title="Payment Failed" text={step.message} />
              <div className="mt-8 flex w-full flex-col-reverse justify-center gap-2 sm:w-auto sm:flex-row">
                <Button variant="outline" onClick={() => setStep({ name: 'amount' })}>
                  Cancel
                </Button>
                <Button onClick={() => setStep({ ...step, name: 'form' })}>Try another card</Button>
              </div>
            </StatusCard>
          )}
        </div>
        <TestCardList />
      </div>
    </div>
  )
}
