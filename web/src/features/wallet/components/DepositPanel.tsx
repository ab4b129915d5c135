import { useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle } from 'lucide-react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { randomUuid } from '@/lib/uuid'
import { ApiError, apiRequest, type ApiEnvelope } from '@/lib/api'
import { formatUsd } from '@/lib/format'
import {
  depositOptionsQueryOptions,
  paymentMethodLabel,
  transactionsQueryOptions,
  walletQueryOptions,
  type DepositResult,
  type PaymentMethod,
} from '../api/wallet'
import { CardDepositStep } from './CardDepositStep'
import { DepositForm } from './DepositForm'
import { DepositOutcome, type Outcome } from './DepositOutcome'

/**
 * Deposit Funds: the form, then processing while the server takes the
 * payment, then the outcome (added, or pending a provider's confirmation).
 */
export function DepositPanel({
  initialAmount,
  returnTo,
  onDone,
}: {
  /** From ?amount=, e.g. a registration's shortfall. */
  initialAmount?: number
  /** From ?return=: the page to continue at (a registration waiting for funds). */
  returnTo?: string
  onDone: () => void
}) {
  // The methods this server takes now, in its order (none until it has said).
  const options = useQuery(depositOptionsQueryOptions())
  const offered = (options.data?.methods ?? []) as PaymentMethod[]
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // A card deposit through Stripe waits here for its payment.
  const [card, setCard] = useState<{
    clientSecret: string
    paymentIntentId: string
    transactionId: number
    amount: number
  } | null>(null)
  const queryClient = useQueryClient()

  // One Idempotency-Key per deposit attempt: sending the same amount and
  // method again (after a lost answer) deposits once; a new amount, or a
  // deposit after a success, is a new attempt.
  const attempt = useRef<{ key: string; body: string } | null>(null)

  const mutation = useMutation({
    mutationFn: ({ key, ...input }: { amount: number; paymentMethod: PaymentMethod; key: string }) =>
      apiRequest<ApiEnvelope<DepositResult>>('POST', '/api/wallet/deposit', input, {
        headers: { 'Idempotency-Key': key },
      }),
    onSuccess: (envelope, input) => {
      if (!envelope?.success) {
        toast({
          variant: 'destructive',
          title: 'Deposit failed',
          description: envelope?.error || 'Failed to process deposit',
        })
        return
      }
      attempt.current = null
      const { transaction, wallet, clientSecret, paymentIntentId } = envelope.data
      if (clientSecret && paymentIntentId && transaction?.status === 'pending') {
        setCard({
          clientSecret,
          paymentIntentId,
          transactionId: transaction.id,
          amount: transaction.amount ?? input.amount,
        })
        return
      }
      queryClient.setQueryData(walletQueryOptions().queryKey, wallet)
      void queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey })
      void queryClient.invalidateQueries({ queryKey: transactionsQueryOptions().queryKey })
      setOutcome({
        amount: transaction?.amount ?? input.amount,
        status: transaction?.status === 'pending' ? 'pending' : 'completed',
        balance: wallet.balance,
        currency: wallet.currency,
        method: input.paymentMethod,
      })
    },
    onError: (failure) => {
      toast({
        variant: 'destructive',
        title: 'Deposit failed',
        description:
          failure instanceof ApiError ? failure.error || 'Failed to process deposit' : 'An unexpected error occurred',
      })
    },
  })

  const deposit = (amount: number, method: PaymentMethod) => {
    if (mutation.isPending) return
    const body = `${amount}|${method}`
    if (attempt.current?.body !== body) attempt.current = { key: randomUuid(), body }
    mutation.mutate({ amount, paymentMethod: method, key: attempt.current.key })
  }

  // Paid: the deposit is completed by the payment (the test path) or, with
  // Stripe.js, once Stripe's webhook reaches the server; read which.
  const cardPaid = async () => {
    if (!card) return
    try {
      const [wallet, transactions] = await Promise.all([
        queryClient.fetchQuery({ ...walletQueryOptions(), staleTime: 0 }),
        queryClient.fetchQuery({ ...transactionsQueryOptions(), staleTime: 0 }),
      ])
      const paid = transactions.find((t) => t.id === card.transactionId)
      setOutcome({
        amount: card.amount,
        status: paid?.status === 'completed' ? 'completed' : 'pending',
        balance: wallet.balance,
        currency: wallet.currency,
      })
    } catch {
      // The payment went through; only the refresh failed.
      const wallet = queryClient.getQueryData(walletQueryOptions().queryKey)
      setOutcome({
        amount: card.amount,
        status: 'pending',
        balance: wallet?.balance ?? 0,
        currency: wallet?.currency ?? 'USD',
      })
    }
    setCard(null)
  }

  if (card) {
    return (
      <CardDepositStep
        clientSecret={card.clientSecret}
        paymentIntentId={card.paymentIntentId}
        amount={card.amount}
        onPaid={() => void cardPaid()}
        onCancel={() => {
          setCard(null)
          void queryClient.invalidateQueries({ queryKey: transactionsQueryOptions().queryKey })
        }}
      />
    )
  }

  if (mutation.isPending) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center px-6 py-16 text-center" role="status" aria-live="polite">
          <Spinner className="h-10 w-10" label="Processing" />
          <p className="mt-4 text-lg font-semibold text-slate-900">Processing your deposit...</p>
          <p className="mt-1 text-sm text-slate-600">
            {formatUsd(mutation.variables.amount)} by {paymentMethodLabel(mutation.variables.paymentMethod)}. Please
            keep this page open.
          </p>
        </CardContent>
      </Card>
    )
  }

  if (outcome) {
    return (
      <DepositOutcome outcome={outcome} bankTransfer={options.data?.bankTransfer} returnTo={returnTo} onDone={onDone} />
    )
  }

  if (options.data && offered.length === 0) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Deposit Funds</CardTitle>
        </CardHeader>
        <CardContent>
          <div role="alert" className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
            <AlertTriangle className="h-5 w-5 shrink-0 text-amber-500" aria-hidden />
            <div>
              <p className="font-semibold">Deposits are unavailable</p>
              <p className="mt-1">
                No payment method is configured on this server yet, so deposits cannot be taken. Please contact
                support.
              </p>
            </div>
          </div>
        </CardContent>
      </Card>
    )
  }

  return (
    <DepositForm
      initialAmount={initialAmount}
      offered={offered}
      bankTransfer={options.data?.bankTransfer}
      onDeposit={deposit}
    />
  )
}
