import type { ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { CheckCircle2, CreditCard, Link2, PlugZap } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, MoneyInput } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { cx } from '@/lib/classNames'
import { TEST_CARDS } from '../api/payments'

/** A step of the payment demo that is a message: loading, or an outcome. */
export function StatusCard({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center px-6 py-14 pt-14 text-center" role="status" aria-live="polite">
        {children}
      </CardContent>
    </Card>
  )
}

export function Outcome({
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

export function ConnectStep({ connecting, onConnect }: { connecting: boolean; onConnect: () => void }) {
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

/** The amount to pay; an amount that is not above 0 is refused by the page (with a toast). */
export function AmountStep({
  amountText,
  onSubmit,
  mode,
}: {
  amountText: string
  onSubmit: (amountText: string) => void
  mode: string
}) {
  const form = useForm<{ amount: string }>({ defaultValues: { amount: amountText } })
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
        <form onSubmit={form.handleSubmit(({ amount }) => onSubmit(amount))} noValidate className="space-y-6">
          <Field label="Amount (USD)">
            {(ids) => <MoneyInput {...ids} min="0.5" className="max-w-xs" {...form.register('amount')} />}
          </Field>
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            Proceed to Checkout
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}

export function TestCardList() {
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
