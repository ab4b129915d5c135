import { Badge } from '@/components/ui/badge'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'
import { transactionStatus, transactionTypeLabel, type Transaction } from '../api/wallet'

export function StatusBadge({ status }: { status: string }) {
  switch (transactionStatus(status)) {
    case 'completed':
      return <Badge tone="success">Completed</Badge>
    case 'pending':
      return <Badge tone="premium">Pending</Badge>
    default:
      return <Badge className="bg-red-50 text-red-700 ring-red-200">Failed</Badge>
  }
}

/** '+$50.00' in green for money in, '−$8.00' in red for money out. */
export function SignedAmount({ amount, className }: { amount: number; className?: string }) {
  const credit = amount >= 0
  return (
    <span
      className={cx(
        'whitespace-nowrap font-semibold tabular-nums',
        credit ? 'text-emerald-700' : 'text-red-600',
        className,
      )}
    >
      {credit ? '+' : '−'}
      {formatUsd(Math.abs(amount))}
    </span>
  )
}

export function transactionTitle(transaction: Transaction): string {
  return transaction.description || transactionTypeLabel(transaction.type)
}
