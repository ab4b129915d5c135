import { useId, useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, Receipt, RotateCcw, Search, SearchX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { formatDate } from '@/lib/format'
import {
  filterTransactions,
  noFilters,
  paymentMethodLabel,
  transactionsQueryOptions,
  transactionTypeLabel,
  type StatusFilter,
  type TransactionFilters,
  type TypeFilter,
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
  const ids = { search: useId(), status: useId(), type: useId() }
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
          <div className="col-span-2 space-y-1.5 md:col-span-1">
            <label htmlFor={ids.search} className="block text-sm font-medium text-slate-700">
              Search
            </label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
                aria-hidden
              />
              <input
                id={ids.search}
                type="search"
                value={filters.q}
                onChange={(event) => onFiltersChange({ ...filters, q: event.target.value })}
                placeholder="Description, method, amount or ID"
                autoComplete="off"
                spellCheck={false}
                className="block h-10 w-full rounded-lg border border-slate-300 bg-white pl-9 pr-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.status} className="block text-sm font-medium text-slate-700">
              Status
            </label>
            <Select
              id={ids.status}
              value={filters.status}
              onChange={(event) => onFiltersChange({ ...filters, status: event.target.value as StatusFilter })}
            >
              <option value="all">All</option>
              <option value="completed">Completed</option>
              <option value="pending">Pending</option>
            </Select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.type} className="block text-sm font-medium text-slate-700">
              Type
            </label>
            <Select
              id={ids.type}
              value={filters.type}
              onChange={(event) => onFiltersChange({ ...filters, type: event.target.value as TypeFilter })}
            >
              <option value="all">All</option>
              <option value="deposits">Deposits</option>
              <option value="purchases">Purchases</option>
            </Select>
          </div>
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
            <ul className="-mx-6 -mb-6 divide-y divide-slate-100 border-t border-slate-200 md:hidden">
              {shown.map((transaction) => (
                <li key={transaction.id} className="px-6 py-3">
                  <div className="flex items-start justify-between gap-3">
                    <p className="min-w-0 break-words text-sm font-medium text-slate-900">
                      {transactionTitle(transaction)}
                    </p>
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
                </li>
              ))}
            </ul>
            <div className="-mx-6 -mb-6 hidden overflow-x-auto md:block">
              <table className="w-full text-left text-sm" aria-label="Transactions">
                <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
                  <tr>
                    <th scope="col" className="px-6 py-3">
                      Date
                    </th>
                    <th scope="col" className="px-3 py-3">
                      Description
                    </th>
                    <th scope="col" className="px-3 py-3">
                      Type
                    </th>
                    <th scope="col" className="px-3 py-3">
                      Method
                    </th>
                    <th scope="col" className="px-3 py-3">
                      Status
                    </th>
                    <th scope="col" className="px-6 py-3 text-right">
                      Amount
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {shown.map((transaction) => (
                    <tr key={transaction.id}>
                      <td className="whitespace-nowrap px-6 py-3 text-slate-600">
                        {formatDate(transaction.createdAt)}
                      </td>
                      <td className="px-3 py-3 font-medium text-slate-900">{transactionTitle(transaction)}</td>
                      <td className="whitespace-nowrap px-3 py-3 text-slate-600">
                        {transactionTypeLabel(transaction.type)}
                      </td>
                      <td className="whitespace-nowrap px-3 py-3 text-slate-600">
                        {paymentMethodLabel(transaction.paymentMethod)}
                      </td>
                      <td className="px-3 py-3">
                        <StatusBadge status={transaction.status} />
                      </td>
                      <td className="px-6 py-3 text-right">
                        <SignedAmount amount={transaction.amount} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}
