import { useEffect, useRef } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { ArrowLeft, ArrowRight, CheckCircle2, Clock } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'
import type { BankTransferDetails, PaymentMethod } from '../api/wallet'

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

/** How a deposit ended: added at once, or pending a provider's (or an admin's) confirmation. */
export type Outcome = {
  amount: number
  status: 'completed' | 'pending'
  balance: number
  currency: string
  method?: PaymentMethod
}

/**
 * A deposit's outcome: added, or pending (with the bank account to pay a
 * transfer to), the balance now, and the way back (or on to the
 * registration waiting for the funds).
 */
export function DepositOutcome({
  outcome,
  bankTransfer,
  returnTo,
  onDone,
}: {
  outcome: Outcome
  bankTransfer?: BankTransferDetails | null
  returnTo?: string
  onDone: () => void
}) {
  const navigate = useNavigate()
  // The outcome replaces a taller form: bring it into view and to the screen reader.
  const outcomeRef = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!outcomeRef.current) return
    outcomeRef.current.focus({ preventScroll: true })
    outcomeRef.current.scrollIntoView?.({ block: 'nearest' })
  }, [outcome])

  const pending = outcome.status === 'pending'
  const bank = pending && outcome.method === 'bank_transfer' ? bankTransfer : null
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
