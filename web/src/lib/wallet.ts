import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'

/**
 * The wallet reads shared by the wallet page, the registrar dashboard and the
 * registration dialog.
 */
export interface Wallet {
  /** Dollars. */
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
  /** A deposit method (credit_card, paypal, bank_transfer, upi) or wallet for purchases. */
  paymentMethod: string
  description?: string
  /** The domain a purchase or renewal paid for. */
  domainId?: number | null
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
