import { useId, useState, type FormEvent, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ArrowLeft, CheckCircle2, CreditCard, Link2, PlugZap, XCircle } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import {
  createPaymentIntent,
  loadStripeJs,
  paymentConfigQueryOptions,
  publishableKeyOrPlaceholder,
  TEST_CARDS,
  type PaymentIntent,
  type StripeJs,
} from '../api/payments'
import { CardForm, paymentErrorText } from './CardForm'

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

  const checkout = async (event: FormEvent) => {
    event.preventDefault()
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
            <AmountStep amountText={amountText} onAmountChange={setAmountText} onSubmit={checkout} mode={mode} />
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
              publishableKey={step.key}
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

function StatusCard({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center px-6 py-14 pt-14 text-center" role="status" aria-live="polite">
        {children}
      </CardContent>
    </Card>
  )
}

function Outcome({
  icon: Icon,
  tone,
  title,
  text,
}: {
  icon: typeof CheckCircle2
  tone: 'green' | 'red'
  title: string
  text: string
}) {
  return (
    <>
      <span
        className={cx(
          'flex h-14 w-14 items-center justify-center rounded-full',
          tone === 'green' ? 'bg-emerald-50 text-emerald-500' : 'bg-red-50 text-red-500',
        )}
      >
        <Icon className="h-8 w-8" aria-hidden />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 max-w-md text-slate-600">{text}</p>
    </>
  )
}

function ConnectStep({ connecting, onConnect }: { connecting: boolean; onConnect: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connect a payment provider</CardTitle>
        <CardDescription>
          Link a card payment provider to accept payments. In this demo the connection is simulated and always succeeds.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center">
          <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <CreditCard className="h-6 w-6" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-medium text-slate-900">Stripe</p>
            <p className="text-sm text-slate-500">Cards, in test mode</p>
          </div>
          <Button onClick={onConnect} disabled={connecting}>
            {connecting ? (
              <Spinner className="h-4 w-4 text-white" label="Connecting" />
            ) : (
              <PlugZap className="h-4 w-4" aria-hidden />
            )}
            {connecting ? 'Connecting...' : 'Connect'}
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}

function AmountStep({
  amountText,
  onAmountChange,
  onSubmit,
  mode,
}: {
  amountText: string
  onAmountChange: (text: string) => void
  onSubmit: (event: FormEvent) => void
  mode: string
}) {
  const id = useId()
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>Payment amount</CardTitle>
          <Badge tone="success">
            <Link2 className="h-3 w-3" aria-hidden />
            Connected
          </Badge>
          {mode === 'demo' && <Badge tone="muted">Demo mode</Badge>}
        </div>
        <CardDescription>Enter how much to pay, then continue to checkout.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="space-y-6">
          <div>
            <label htmlFor={id} className="block text-sm font-medium text-slate-700">
              Amount (USD)
            </label>
            <div className="relative mt-1 max-w-xs">
              <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">$</span>
              <input
                id={id}
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0.5"
                value={amountText}
                onChange={(e) => onAmountChange(e.target.value)}
                className="h-11 w-full rounded-lg border border-slate-300 pl-7 pr-3 text-slate-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
              />
            </div>
          </div>
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            Proceed to Checkout
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}

function TestCardList() {
  return (
    <Card className="h-fit">
      <CardHeader>
        <CardTitle>How it works</CardTitle>
        <CardDescription>
          Connect the provider, choose an amount, then pay with one of these test cards. Use any future expiry date and
          any 3-digit CVC (4 digits for American Express).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-slate-100" aria-label="Test cards">
          {TEST_CARDS.map((c) => (
            <li key={c.number} className="py-2.5">
              <p className="font-mono text-sm text-slate-900">{c.number}</p>
              <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs">
                <span className="text-slate-500">{c.brand}</span>
                <span className={cx('font-medium', c.succeeds ? 'text-emerald-700' : 'text-red-700')}>{c.outcome}</span>
              </p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
