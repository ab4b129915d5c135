import { useForm } from 'react-hook-form'
import { Building2, CreditCard, Smartphone, Wallet } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, MoneyInput } from '@/components/ui/form'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'
import { useRules, type Rules } from '@/lib/rules'
import { paymentMethodLabel, type BankTransferDetails, type PaymentMethod } from '../api/wallet'

/** Spec section 9: the form's default and its quick amounts; the limits are the server's (GET /api/rules). */
export const DEFAULT_DEPOSIT = 50
export const QUICK_AMOUNTS = [20, 50, 100, 200] as const

type DepositLimits = Rules['deposits']

const methodIcons: Record<string, typeof CreditCard> = {
  credit_card: CreditCard,
  paypal: Wallet,
  bank_transfer: Building2,
  upi: Smartphone,
}

/** The form's check of the amount against the server's limits, with the server's own messages. */
export function depositAmountError(text: string, limits: DepositLimits): string | undefined {
  const trimmed = text.trim()
  const amount = Number(trimmed)
  if (trimmed === '' || !Number.isFinite(amount) || amount <= 0) return limits.notPositiveMessage
  if (amount < limits.minAmount) return limits.tooSmallMessage
  if (amount > limits.maxAmount) return limits.tooLargeMessage
  // Count the decimals as typed (the server does too): 1.000000001 is not $1.00.
  const decimals = /\.(\d*?)0*$/.exec(trimmed)?.[1] ?? ''
  if (decimals.length > 2 || Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6) return limits.decimalsMessage
  return undefined
}

export function amountText(amount: number | undefined): string {
  const value = amount ?? DEFAULT_DEPOSIT
  return Number.isInteger(value) ? String(value) : value.toFixed(2)
}

type DepositValues = { amount: string; method: PaymentMethod }

/** The amount as a number of cents-exact dollars, or undefined while it is not a valid deposit. */
function validAmountOf(text: string, limits: DepositLimits | undefined): number | undefined {
  if (!limits || depositAmountError(text, limits) !== undefined) return undefined
  return Math.round(Number(text) * 100) / 100
}

/**
 * The Deposit Funds form: the amount (with quick amounts), the payment
 * method among those offered, and the total. The amount is checked once the
 * form has been sent, then as it is typed.
 */
export function DepositForm({
  initialAmount,
  offered,
  bankTransfer,
  onDeposit,
}: {
  initialAmount?: number
  /** The methods this server takes now. */
  offered: PaymentMethod[]
  bankTransfer?: BankTransferDetails | null
  onDeposit: (amount: number, method: PaymentMethod) => void
}) {
  const form = useForm<DepositValues>({
    defaultValues: { amount: amountText(initialAmount), method: 'credit_card' },
  })
  const text = form.watch('amount')
  const picked = form.watch('method')
  const method = offered.includes(picked) ? picked : (offered[0] ?? picked)
  const limits = useRules()?.deposits
  const validAmount = validAmountOf(text, limits)
  const error = form.formState.errors.amount?.message
  const setAmount = (next: string) =>
    form.setValue('amount', next, { shouldValidate: form.formState.isSubmitted, shouldDirty: true })

  const fee = 0
  return (
    <Card>
      <CardHeader>
        <CardTitle>Deposit Funds</CardTitle>
        <CardDescription>Add money to your wallet to pay for registrations and renewals.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={form.handleSubmit(({ amount }) => onDeposit(validAmountOf(amount, limits)!, method))}
          className="space-y-6"
        >
          <div className="space-y-1.5">
            <Field label="Amount (USD)" error={error}>
              {(ids) => (
                <MoneyInput
                  {...ids}
                  size="lg"
                  min={limits?.minAmount}
                  max={limits?.maxAmount}
                  {...form.register('amount', {
                    validate: (text) => (limits ? depositAmountError(text, limits) : undefined),
                  })}
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-2 pt-1" role="group" aria-label="Quick amounts">
              {QUICK_AMOUNTS.map((quick) => {
                const active = Number(text) === quick
                return (
                  <button
                    key={quick}
                    type="button"
                    aria-pressed={active}
                    onClick={() => setAmount(String(quick))}
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
                const Icon = methodIcons[value] ?? Wallet
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
                      name="method"
                      value={value}
                      checked={selected}
                      onChange={() => form.setValue('method', value)}
                      className="sr-only"
                    />
                    <Icon className={cx('h-5 w-5', selected ? 'text-brand-600' : 'text-slate-400')} aria-hidden />
                    {paymentMethodLabel(value)}
                  </label>
                )
              })}
            </div>
          </fieldset>

          {method === 'bank_transfer' && bankTransfer && (
            <p className="text-sm text-slate-600">
              You pay by bank transfer to {bankTransfer.bankName}; your deposit is added once an admin confirms the
              transfer. The account details follow when you deposit.
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

          {/* The amount is checked against the server's rules: wait for them. */}
          <Button type="submit" size="lg" className="w-full" disabled={!limits}>
            {validAmount === undefined ? 'Deposit' : `Deposit ${formatUsd(validAmount)}`}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
