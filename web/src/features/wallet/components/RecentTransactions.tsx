import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ArrowDownLeft, ArrowRight, ArrowUpRight, Receipt } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { cx } from '@/lib/classNames'
import { formatDate } from '@/lib/format'
import { transactionsQueryOptions, transactionTypeLabel, type Transaction } from '../api/wallet'
import { SignedAmount, StatusBadge, transactionTitle } from './TransactionParts'

/** The overview lists this many (spec section 9). */
const RECENT_COUNT = 5

export function RecentTransactions({ onViewAll }: { onViewAll: () => void }) {
  const { data: transactions, isPending, isError } = useQuery(transactionsQueryOptions())

  return (
    <Card role="region" aria-labelledby="recent-transactions-title">
      <CardHeader className="flex flex-row items-start justify-between gap-4 space-y-0">
        <div className="space-y-1">
          <CardTitle id="recent-transactions-title">Recent transactions</CardTitle>
          <CardDescription>The last {RECENT_COUNT} movements of your wallet.</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={onViewAll}>
          View All
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Button>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <p className="flex items-center gap-2 py-6 text-slate-600">
            <Spinner className="h-4 w-4" />
            Loading transactions...
          </p>
        ) : isError ? (
          <p className="flex items-center gap-2 py-6 text-slate-700">
            <AlertCircle className="h-4 w-4 text-red-500" aria-hidden />
            Failed to load transactions. Please try again.
          </p>
        ) : transactions.length === 0 ? (
          <div className="flex flex-col items-center py-8 text-center">
            <Receipt className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2 text-sm text-slate-600">No transactions yet.</p>
          </div>
        ) : (
          <ul className="-mx-6 -mb-6 divide-y divide-slate-100 border-t border-slate-200">
            {transactions.slice(0, RECENT_COUNT).map((transaction) => (
              <TransactionRow key={transaction.id} transaction={transaction} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function TransactionRow({ transaction }: { transaction: Transaction }) {
  const credit = transaction.amount >= 0
  const Icon = credit ? ArrowDownLeft : ArrowUpRight
  return (
    <li className="flex items-center gap-4 px-6 py-3">
      <span
        className={cx(
          'flex h-9 w-9 shrink-0 items-center justify-center rounded-full',
          credit ? 'bg-emerald-50 text-emerald-600' : 'bg-red-50 text-red-500',
        )}
      >
        <Icon className="h-4 w-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900">{transactionTitle(transaction)}</p>
        <p className="text-xs text-slate-500">
          {transactionTypeLabel(transaction.type)} · {formatDate(transaction.createdAt)}
        </p>
      </div>
      <div className="flex flex-col items-end gap-1">
        <SignedAmount amount={transaction.amount} className="text-sm" />
        <StatusBadge status={transaction.status} />
      </div>
    </li>
  )
}
