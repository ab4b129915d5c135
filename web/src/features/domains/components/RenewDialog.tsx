import { useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { AlertTriangle, Wallet as WalletIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { cx } from '@/lib/classNames'
import { formatDate, formatUsd } from '@/lib/format'
import { randomUuid } from '@/lib/uuid'
import { toCents, topUpDollars, useRenewDomain, walletQueryOptions, type Domain } from '../api/domains'
import { renewalTermsOf } from '../lifecycle'

/**
 * Confirms one renewal: the price, the period, the new expiry date and the
 * wallet balance, with the way to add funds when it falls short. Mount it per
 * opening: each opening gets its own Idempotency-Key, and every retry within
 * it sends the same one, so the server renews and charges once.
 */
export function RenewDialog({ domain, onClose }: { domain: Domain; onClose: () => void }) {
  const [idempotencyKey] = useState(randomUuid)
  const [fundsMessage, setFundsMessage] = useState<string | null>(null)
  // The server's shortfall after a 402, in cents.
  const [fundsShortCents, setFundsShortCents] = useState<number | undefined>(undefined)
  // The balance may have changed elsewhere (a deposit in another tab): read it afresh.
  const wallet = useQuery({ ...walletQueryOptions(), refetchOnMount: 'always' })
  const mutation = useRenewDomain(domain.id, idempotencyKey)
  const fullName = `${domain.name}${domain.extension}`
  const terms = renewalTermsOf(domain)

  const priceCents = toCents(terms.price)
  const balanceCents = wallet.data ? toCents(wallet.data.balance) : undefined
  const shortCents = balanceCents === undefined ? 0 : Math.max(0, priceCents - balanceCents)
  // After a 402 the server's figure wins: the balance shown may be stale.
  const addCents = (fundsMessage !== null && fundsShortCents) || shortCents || priceCents
  const short = shortCents > 0 || fundsMessage !== null
  const pending = mutation.isPending

  const renew = () => {
    setFundsMessage(null)
    setFundsShortCents(undefined)
    mutation.mutate(undefined, {
      onSuccess: ({ domain: renewed }) => {
        toast({
          title: 'Domain renewed',
          description: `${renewed.name}${renewed.extension} now expires on ${formatDate(renewed.expiresAt)}.`,
        })
        onClose()
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 402) {
          setFundsMessage(error.error || 'Your wallet balance is too low for this renewal.')
          setFundsShortCents(error.shortfall?.neededCents)
          void wallet.refetch()
          return
        }
        toast({
          variant: 'destructive',
          title: 'Error',
          description: serverMessage(error) || 'An unexpected error occurred',
        })
      },
    })
  }

  return (
    // While the renewal is on its way the dialog stays: closing it would hide the outcome.
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent hideClose={pending}>
        <DialogHeader>
          <DialogTitle>Renew domain</DialogTitle>
          <DialogDescription>
            Renew <span className="break-all font-medium text-slate-700">{fullName}</span> for {terms.periodText}, paid
            from your wallet.
          </DialogDescription>
        </DialogHeader>

        <dl className="mt-4 divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-inset ring-slate-200 sm:mt-5">
          <SummaryRow label="Renewal period" value={terms.periodText} />
          <SummaryRow label="Current expiry" value={formatDate(domain.expiresAt)} />
          <SummaryRow label="New expiry" value={formatDate(terms.newExpiresAt)} strong />
          <SummaryRow label="Price" value={formatUsd(terms.price)} strong />
          <SummaryRow
            label="Wallet balance"
            value={wallet.isPending ? 'Loading...' : wallet.isError ? 'Unavailable' : formatUsd(wallet.data.balance)}
          />
        </dl>

        {short ? (
          <div
            role={fundsMessage ? 'alert' : 'status'}
            className="mt-4 flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
          >
            <AlertTriangle className="h-5 w-5 shrink-0 text-amber-500" aria-hidden />
            {fundsMessage ? (
              <p>{fundsMessage}</p>
            ) : (
              <p>
                Your balance is short by <span className="font-semibold">{formatUsd(shortCents / 100)}</span>. Add funds
                to your wallet to renew this domain.
              </p>
            )}
          </div>
        ) : (
          balanceCents !== undefined && (
            <p className="mt-3 text-xs text-slate-500">
              {formatUsd((balanceCents - priceCents) / 100)} will remain in your wallet.
            </p>
          )
        )}

        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            onClick={renew}
            disabled={pending || short || wallet.isPending}
            aria-description={`Renew ${fullName} for ${terms.periodText} for ${formatUsd(terms.price)}`}
          >
            {pending ? 'Renewing...' : `Renew for ${formatUsd(terms.price)}`}
          </Button>
          {/* Short of funds, adding them is the next step: last here, so first on phones and rightmost on wide screens. */}
          {short && (
            <Link
              to="/wallet"
              search={{ tab: 'deposit', amount: topUpDollars(addCents), return: `/domain-management/${domain.id}` }}
              className={buttonStyles()}
            >
              <WalletIcon className="h-4 w-4" aria-hidden />
              Add funds
            </Link>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

function SummaryRow({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5">
      <dt className={cx(strong ? 'font-semibold text-slate-900' : 'text-slate-600')}>{label}</dt>
      <dd className={cx('tabular-nums', strong ? 'text-base font-semibold text-slate-900' : 'text-slate-900')}>
        {value}
      </dd>
    </div>
  )
}
