import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, Receipt, RotateCcw, SearchX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { Field, SearchInput, Select, useLiveForm } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { formatDate } from '@/lib/format'
import {
  filterTransactions,
  noFilters,
  paymentMethodLabel,
  transactionsQueryOptions,
  transactionTypeLabel,
  type TransactionFilters,
  type Transaction,
} from '../api/wallet'
import { SignedAmount, StatusBadge, transactionTitle } from './TransactionParts'

/** Every transaction, searchable and filtered by status and type. */
export function TransactionsPanel({
  filters,
  onFiltersChange,
}: {
  filters: TransactionFilters
  onFiltersChange: (filters: TransactionFilters) => void
}) {
  const form = useLiveForm<TransactionFilters>({ values: filters, onChange: onFiltersChange })
  const { data: transactions, isPending, isError } = useQuery(transactionsQueryOptions())
  const shown = useMemo(() => (transactions ? filterTransactions(transactions, filters) : []), [transactions, filters])
  const filtering = filters.q.trim() !== '' || filters.status !== 'all' || filters.type !== 'all'

  return (
    <Card>
      <CardHeader>
        <CardTitle>Transactions</CardTitle>
        <CardDescription>Every deposit and payment of your wallet, newest first.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <form
          role="search"
          aria-label="Filter transactions"
          onSubmit={(event) => event.preventDefault()}
          className="grid grid-cols-2 items-end gap-3 md:grid-cols-[minmax(0,1fr)_9rem_9rem_auto]"
        >
          <Field label="Search" className="col-span-2 md:col-span-1">
            {(ids) => (
              <SearchInput {...ids} placeholder="Description, method, amount or ID" {...form.register('q')} />
            )}
          </Field>
          <Field label="Status">
            {(ids) => (
              <Select {...ids} {...form.register('status')}>
                <option value="all">All</option>
                <option value="completed">Completed</option>
                <option value="pending">Pending</option>
              </Select>
            )}
          </Field>
          <Field label="Type">
            {(ids) => (
              <Select {...ids} {...form.register('type')}>
                <option value="all">All</option>
                <option value="deposits">Deposits</option>
                <option value="purchases">Purchases</option>
              </Select>
            )}
          </Field>
          <Button
            variant="outline"
            className="col-span-2 md:col-span-1"
            onClick={() => onFiltersChange(noFilters)}
            disabled={!filtering}
          >
            <RotateCcw className="h-4 w-4" aria-hidden />
            Reset
          </Button>
        </form>

        {isPending ? (
          <p className="flex items-center justify-center gap-2 py-12 text-slate-600">
            <Spinner className="h-4 w-4" />
            Loading transactions...
          </p>
        ) : isError ? (
          <div className="flex flex-col items-center gap-4 py-12 text-center">
            <p className="flex items-center gap-2 text-slate-700">
              <AlertCircle className="h-4 w-4 text-red-500" aria-hidden />
              Failed to load transactions. Please try again.
            </p>
            <Button variant="outline" onClick={() => window.location.reload()}>
              Retry
            </Button>
          </div>
        ) : transactions.length === 0 ? (
          <div className="flex flex-col items-center py-12 text-center">
            <Receipt className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2 text-sm text-slate-600">No transactions yet.</p>
          </div>
        ) : shown.length === 0 ? (
          <div className="flex flex-col items-center py-12 text-center">
            <SearchX className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="mt-2 font-medium text-slate-900">No transactions match your filters</p>
            <p className="mt-1 text-sm text-slate-600">Try another search, or reset the filters.</p>
            <Button variant="outline" className="mt-4" onClick={() => onFiltersChange(noFilters)}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              Reset filters
            </Button>
          </div>
        ) : (
          <>
            <p className="text-sm text-slate-600" aria-live="polite">
              {shown.length === transactions.length
                ? `${transactions.length} ${transactions.length === 1 ? 'transaction' : 'transactions'}`
                : `${shown.length} of ${transactions.length} transactions`}
            </p>
            {/* Phones get a stacked list; the six columns need room. */}
            <DataTable
              label="Transactions"
              rows={shown}
              rowKey={(transaction) => transaction.id}
              columns={transactionColumns}
              stacked={(transaction) => <TransactionCard transaction={transaction} />}
              stackBelow="md"
              className="-mb-6"
            />
          </>
        )}
      </CardContent>
    </Card>
  )
}

const transactionColumns: Column<Transaction>[] = [
  { header: 'Date', cell: (t) => formatDate(t.createdAt), className: 'whitespace-nowrap text-slate-600' },
  { header: 'Description', cell: transactionTitle, className: 'font-medium text-slate-900' },
  { header: 'Type', cell: (t) => transactionTypeLabel(t.type), className: 'whitespace-nowrap text-slate-600' },
  { header: 'Method', cell: (t) => paymentMethodLabel(t.paymentMethod), className: 'whitespace-nowrap text-slate-600' },
  { header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
  { header: 'Amount', align: 'right', cell: (t) => <SignedAmount amount={t.amount} /> },
]

/** A transaction on a phone: what it was and its amount, then date, type, method and status. */
function TransactionCard({ transaction }: { transaction: Transaction }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 break-words text-sm font-medium text-slate-900">{transactionTitle(transaction)}</p>
        <SignedAmount amount={transaction.amount} className="text-sm" />
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
        <span>{formatDate(transaction.createdAt)}</span>
        <span aria-hidden>·</span>
        <span>{transactionTypeLabel(transaction.type)}</span>
        <span aria-hidden>·</span>
        <span>{paymentMethodLabel(transaction.paymentMethod)}</span>
        <StatusBadge status={transaction.status} />
      </div>
    </>
  )
}
