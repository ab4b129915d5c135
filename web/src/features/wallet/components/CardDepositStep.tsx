import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { formatUsd } from '@/lib/format'
import {
  loadStripeJs,
  paymentConfigQueryOptions,
  type PaymentIntent,
  type StripeJs,
} from '@/features/payments/api/payments'
import { CardForm } from '@/features/payments/components/CardForm'

type Stage = { name: 'loading' } | { name: 'unavailable' } | { name: 'form' | 'processing'; stripe: StripeJs | null }

/**
 * Pays a pending card deposit when the server takes cards through Stripe:
 * Stripe's Payment Element when Stripe.js loads, otherwise (no internet, a
 * test key) the server's test path. The deposit completes when the payment
 * does; a decline leaves it to another card.
 */
export function CardDepositStep({
  clientSecret,
  paymentIntentId,
  amount,
  onPaid,
  onCancel,
}: {
  clientSecret: string
  paymentIntentId: string
  amount: number
  onPaid: () => void
  onCancel: () => void
}) {
  const config = useQuery(paymentConfigQueryOptions())
  const [stage, setStage] = useState<Stage>({ name: 'loading' })
  const publishableKey = config.data?.publishableKey ?? ''
  const intent: PaymentIntent = {
    clientSecret,
    paymentIntentId,
    mode: 'stripe',
    publishableKey,
  }

  useEffect(() => {
    if (!config.data) return
    let live = true
    const testMode = config.data.testMode
    void (publishableKey ? loadStripeJs(publishableKey) : Promise.resolve(null)).then((stripe) => {
      if (live) setStage(stripe || testMode ? { name: 'form', stripe } : { name: 'unavailable' })
    })
    return () => {
      live = false
    }
  }, [config.data, publishableKey])

  if (config.isError || stage.name === 'unavailable') {
    return (
      <Card>
        <CardContent className="flex flex-col items-center px-6 py-12 text-center" role="alert">
          <AlertCircle className="h-10 w-10 text-red-500" aria-hidden />
          <p className="mt-4 text-lg font-semibold text-slate-900">Card payments cannot be taken right now</p>
          <p className="mt-1 max-w-md text-slate-600">
            The card form could not be loaded in this browser. Your deposit stays pending and nothing is charged; try
            again later or choose another payment method.
          </p>
          <Button className="mt-8" variant="outline" onClick={onCancel}>
            <ArrowLeft className="h-4 w-4" aria-hidden />
            Back
          </Button>
        </CardContent>
      </Card>
    )
  }
  if (stage.name === 'loading') {
    return (
      <Card>
        <CardContent className="flex flex-col items-center px-6 py-16 text-center" role="status" aria-live="polite">
          <Spinner className="h-10 w-10" label="Loading" />
          <p className="mt-4 text-lg font-semibold text-slate-900">Setting up your card payment...</p>
        </CardContent>
      </Card>
    )
  }
  return (
    <CardForm
      intent={intent}
      stripe={stage.stripe}
      description={
        <>
          Pay <span className="font-semibold text-slate-900">{formatUsd(amount)}</span> into your Nameport wallet.
        </>
      }
      processing={stage.name === 'processing'}
      onProcessing={() => setStage({ ...stage, name: 'processing' })}
      onSucceeded={onPaid}
      onFailed={(message) => {
        toast({ variant: 'destructive', title: 'Payment Failed', description: message })
        setStage({ ...stage, name: 'form' })
      }}
      onError={(message) => {
        toast({ variant: 'destructive', title: 'Payment Error', description: message })
        setStage({ ...stage, name: 'form' })
      }}
      onCancel={onCancel}
    />
  )
}
