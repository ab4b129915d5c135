import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api'

export interface Wallet {
  balance: number
  currency: string
}

export type TransactionType = 'deposit' | 'withdrawal' | 'domain_purchase' | 'domain_renewal'

export interface Transaction {
  id: number
  type: TransactionType
  /** Dollars; negative for debits. */
  amount: number
  /** completed or pending; anything else counts as failed. */
  status: string
  paymentMethod: string
  description?: string
  createdAt: string
}

export function walletQueryOptions() {
  return queryOptions({
    queryKey: ['/api/wallet'],
    queryFn: getQueryFn<Wallet>(),
  })
}

/** Newest first, as the server sends them. */
export function transactionsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/transactions'],
    queryFn: getQueryFn<Transaction[]>(),
  })
}

/** Completed money in (deposits) and out (debits), in dollars. */
export function walletTotals(transactions: Transaction[]): { deposited: number; spent: number } {
  let depositedCents = 0
  let spentCents = 0
  for (const t of transactions) {
    if (t.status !== 'completed') continue
    // Sum in cents so that 0.1 + 0.2 stays 0.3.
    const cents = Math.round(t.amount * 100)
    if (t.type === 'deposit' && cents > 0) depositedCents += cents
    else if (cents < 0) spentCents -= cents
  }
  return { deposited: depositedCents / 100, spent: spentCents / 100 }
}
