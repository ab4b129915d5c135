import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  AlertTriangle,
  ArrowLeft,
  ArrowRight,
  Building2,
  CheckCircle2,
  Clock,
  CreditCard,
  Smartphone,
  Wallet,
} from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { randomUuid } from '@/lib/uuid'
import { ApiError, apiRequest, type ApiEnvelope } from '@/lib/api'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'
import {
  depositOptionsQueryOptions,
  paymentMethodLabel,
  paymentMethods,
  type BankTransferDetails,
  transactionsQueryOptions,
  walletQueryOptions,
  type DepositResult,
  type PaymentMethod,
} from '../api/wallet'
import { CardDepositStep } from './CardDepositStep'

/** Spec section 9: the form's default, its quick amounts and minimum; the server's maximum. */
export const DEFAULT_DEPOSIT = 50
export const QUICK_AMOUNTS = [20, 50, 100, 200] as const
const MIN_DEPOSIT = 1
const MAX_DEPOSIT = 10_000

const methodIcons: Record<PaymentMethod, typeof CreditCard> = {
  credit_card: CreditCard,
  paypal: Wallet,
  bank_transfer: Building2,
  upi: Smartphone,
}

/** The form's check of the amount, with the server's own messages. */
export function depositAmountError(text: string): string | undefined {
  const trimmed = text.trim()
  const amount = Number(trimmed)
  if (trimmed === '' || !Number.isFinite(amount) || amount <= 0) return 'Amount must be greater than 0'
  if (amount < MIN_DEPOSIT) return 'The minimum deposit is $1.00'
  if (amount > MAX_DEPOSIT) return 'The maximum deposit is $10,000.00'
  // Count the decimals as typed (the server does too): 1.000000001 is not $1.00.
  const decimals = /\.(\d*?)0*$/.exec(trimmed)?.[1] ?? ''
  if (decimals.length > 2 || Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6)
    return 'Amount must have at most 2 decimals'
  return undefined
}

function amountText(amount: number | undefined): string {
  const value = amount ?? DEFAULT_DEPOSIT
  return Number.isInteger(value) ? String(value) : value.toFixed(2)
}

type Outcome = {
  amount: number
  status: 'completed' | 'pending'
  balance: number
  currency: string
  method?: PaymentMethod
}

/** The account a bank-transfer deposit is paid to. */
function BankDetails({ bank }: { bank: BankTransferDetails }) {
  const rows = [
    ['Bank', bank.bankName],
    ['Account name', bank.accountName],
    ['Account number', bank.accountNumber],
    ['Routing number', bank.routingNumber],
  ]
  return (
    <div className="w-full max-w-md text-left">
      <dl className="divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-inset ring-slate-200">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 px-4 py-2.5">
            <dt className="text-slate-600">{label}</dt>
            <dd className="break-all text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {bank.instructions && <p className="mt-2 text-sm text-slate-600">{bank.instructions}</p>}
    </div>
  )
}

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
  const ids = { amount: useId(), amountError: useId(), method: useId() }
  const [text, setText] = useState(() => amountText(initialAmount))
  const [picked, setPicked] = useState<PaymentMethod>('credit_card')
  // The methods this server takes now; all of them until it has said.
  const options = useQuery(depositOptionsQueryOptions())
  const offered = options.data
    ? paymentMethods.filter((m) => (options.data.methods ?? []).includes(m))
    : [...paymentMethods]
  const method = offered.includes(picked) ? picked : (offered[0] ?? picked)
  const [submitted, setSubmitted] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  // A card deposit through Stripe waits here for its payment.
  const [card, setCard] = useState<{
    clientSecret: string
    paymentIntentId: string
    transactionId: number
    amount: number
  } | null>(null)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  // The outcome replaces a taller form: bring it into view and to the screen reader.
  const outcomeRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!outcome || !outcomeRef.current) return
    outcomeRef.current.focus({ preventScroll: true })
    outcomeRef.current.scrollIntoView?.({ block: 'nearest' })
  }, [outcome])

  const error = submitted ? depositAmountError(text) : undefined
  const validAmount = depositAmountError(text) === undefined ? Math.round(Number(text) * 100) / 100 : undefined

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

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (validAmount === undefined || mutation.isPending) return
    const body = `${validAmount}|${method}`
    if (attempt.current?.body !== body) attempt.current = { key: randomUuid(), body }
    mutation.mutate({ amount: validAmount, paymentMethod: method, key: attempt.current.key })
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
    const pending = outcome.status === 'pending'
    const bank = pending && outcome.method === 'bank_transfer' ? options.data?.bankTransfer : null
    const Icon = pending ? Clock : CheckCircle2
    return (
      <Card>
        <div
          ref={outcomeRef}
          tabIndex={-1}
          className="flex scroll-mt-24 flex-col items-center px-6 py-12 text-center focus:outline-none"
          role="status"
          aria-live="polite"
        >
          <span
            className={cx(
              'flex h-14 w-14 items-center justify-center rounded-full',
              pending ? 'bg-amber-50 text-amber-500' : 'bg-emerald-50 text-emerald-500',
            )}
          >
            <Icon className="h-8 w-8" aria-hidden />
          </span>
          <h2 className="mt-4 text-xl font-semibold text-slate-900">
            {pending ? 'Deposit pending' : 'Deposit successful'}
          </h2>
          {bank ? (
            <>
              <p className="mt-1 max-w-md text-slate-600">
                Please transfer {formatUsd(outcome.amount)} to the account below. It will be added to your wallet once
                we have received the transfer and an admin confirms it.
              </p>
              <div className="mt-4 flex w-full justify-center">
                <BankDetails bank={bank} />
              </div>
            </>
          ) : pending ? (
            <p className="mt-1 max-w-md text-slate-600">
              Your deposit of {formatUsd(outcome.amount)} is pending confirmation. It will be added to your wallet once
              the payment provider confirms it.
            </p>
          ) : (
            <p className="mt-1 text-slate-600">{formatUsd(outcome.amount)} has been added to your wallet</p>
          )}
          <p className="mt-4 text-sm text-slate-500">
            Current balance: <span className="font-semibold text-slate-900">{formatUsd(outcome.balance)}</span>
          </p>
          <div className="mt-8 flex w-full flex-col-reverse justify-center gap-2 sm:w-auto sm:flex-row">
            <Button variant={returnTo && !pending ? 'outline' : 'primary'} onClick={onDone}>
              <ArrowLeft className="h-4 w-4" aria-hidden />
              Back to Overview
            </Button>
            {returnTo && (
              <a
                href={returnTo}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
                  event.preventDefault()
                  void navigate({ href: returnTo })
                }}
                className={buttonStyles({ variant: pending ? 'outline' : 'primary' })}
              >
                Continue registration
                <ArrowRight className="h-4 w-4" aria-hidden />
              </a>
            )}
          </div>
        </div>
      </Card>
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

  const fee = 0
  return (
    <Card>
      <CardHeader>
        <CardTitle>Deposit Funds</CardTitle>
        <CardDescription>Add money to your wallet to pay for registrations and renewals.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={submit} className="space-y-6">
          <div className="space-y-1.5">
            <label htmlFor={ids.amount} className="block text-sm font-medium text-slate-700">
              Amount (USD)
            </label>
            <div className="relative">
              <span className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-slate-500">$</span>
              <input
                id={ids.amount}
                type="number"
                inputMode="decimal"
                step="0.01"
                min={MIN_DEPOSIT}
                value={text}
                onChange={(event) => setText(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? ids.amountError : undefined}
                className={cx(
                  'block h-12 w-full rounded-lg border bg-white pl-7 pr-3 text-lg font-semibold text-slate-900 shadow-sm focus:outline-none focus:ring-2',
                  error
                    ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
                    : 'border-slate-300 focus:border-brand-500 focus:ring-brand-200',
                )}
              />
            </div>
            {error && (
              <p id={ids.amountError} role="alert" className="text-sm text-red-600">
                {error}
              </p>
            )}
            <div className="flex flex-wrap gap-2 pt-1" role="group" aria-label="Quick amounts">
              {QUICK_AMOUNTS.map((quick) => {
                const active = Number(text) === quick
                return (
                  <button
                    key={quick}
                    type="button"
                    aria-pressed={active}
                    onClick={() => setText(String(quick))}
                    className={cx(
                      'h-9 min-w-[4.5rem] rounded-lg border px-3 text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                      active
                        ? 'border-brand-500 bg-brand-50 text-brand-700'
                        : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
                    )}
                  >
                    ${quick}
                  </button>
                )
              })}
            </div>
          </div>

          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Payment method</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {offered.map((value) => {
                const Icon = methodIcons[value]
                const selected = method === value
                return (
                  <label
                    key={value}
                    className={cx(
                      'flex cursor-pointer items-center gap-3 rounded-xl border p-3 text-sm font-medium transition focus-within:ring-2 focus-within:ring-brand-500',
                      selected
                        ? 'border-brand-500 bg-brand-50/60 text-slate-900 ring-1 ring-brand-500'
                        : 'border-slate-200 text-slate-700 hover:border-slate-300',
                    )}
                  >
                    <input
                      type="radio"
                      name={ids.method}
                      value={value}
                      checked={selected}
                      onChange={() => setPicked(value)}
                      className="sr-only"
                    />
                    <Icon className={cx('h-5 w-5', selected ? 'text-brand-600' : 'text-slate-400')} aria-hidden />
                    {paymentMethodLabel(value)}
                  </label>
                )
              })}
            </div>
          </fieldset>

          {method === 'bank_transfer' && options.data?.bankTransfer && (
            <p className="text-sm text-slate-600">
              You pay by bank transfer to {options.data.bankTransfer.bankName}; your deposit is added once an admin
              confirms the transfer. The account details follow when you deposit.
            </p>
          )}

          <dl className="divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-inset ring-slate-200">
            <div className="flex justify-between px-4 py-2.5">
              <dt className="text-slate-600">Amount:</dt>
              <dd className="tabular-nums text-slate-900">
                {validAmount === undefined ? '—' : formatUsd(validAmount)}
              </dd>
            </div>
            <div className="flex justify-between px-4 py-2.5">
              <dt className="text-slate-600">Processing fee:</dt>
              <dd className="tabular-nums text-slate-900">{formatUsd(fee)}</dd>
            </div>
            <div className="flex justify-between px-4 py-2.5 font-semibold text-slate-900">
              <dt>Total:</dt>
              <dd className="tabular-nums">{validAmount === undefined ? '—' : formatUsd(validAmount + fee)}</dd>
            </div>
          </dl>

          <Button type="submit" size="lg" className="w-full">
            {validAmount === undefined ? 'Deposit' : `Deposit ${formatUsd(validAmount)}`}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
