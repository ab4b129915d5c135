import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Transaction } from '@/lib/wallet'
import type { Schema } from '@/lib/schemas'

export {
  transactionsQueryOptions,
  walletQueryOptions,
  type Transaction,
  type TransactionType,
  type Wallet,
} from '@/lib/wallet'

/** A top-up method (spec section 3); GET /api/wallet/deposit-options lists those that work now. */
export type PaymentMethod = 'credit_card' | 'paypal' | 'bank_transfer' | 'upi'

const methodLabels: Record<string, string> = {
  credit_card: 'Credit Card',
  paypal: 'PayPal',
  bank_transfer: 'Bank Transfer',
  upi: 'UPI',
  wallet: 'Wallet',
}

/** 'Credit Card' for credit_card; an unknown method reads as its words ('crypto_coin' → 'Crypto coin'). */
export function paymentMethodLabel(method: string): string {
  if (methodLabels[method]) return methodLabels[method]
  const words = method.replace(/_/g, ' ').trim()
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : '—'
}

const typeLabels: Record<string, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  domain_purchase: 'Domain purchase',
  domain_renewal: 'Domain renewal',
}

export function transactionTypeLabel(type: string): string {
  return typeLabels[type] ?? type
}

/** completed and pending are themselves; anything else is failed (spec section 3). */
export function transactionStatus(status: string): 'completed' | 'pending' | 'failed' {
  return status === 'completed' || status === 'pending' ? status : 'failed'
}

/** Where to send a bank-transfer deposit (the admin's bank_transfer gateway). */
export type BankTransferDetails = Schema<'BankTransferBody'>

export type DepositOptions = Schema<'DepositOptionsBody'>

/** GET /api/wallet/deposit-options: how a deposit can be paid on this server now. */
export function depositOptionsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/wallet/deposit-options'],
    queryFn: getQueryFn<DepositOptions>(),
  })
}

export type DepositInput = Schema<'DepositInputBody'>

export type DepositResult = Schema<'DepositBody'>

/** POST /api/wallet/deposit: 201 with the deposit (completed, or pending a provider's confirmation). */
export async function deposit(input: DepositInput): Promise<DepositResult> {
  return unwrap(await apiRequest<ApiEnvelope<DepositResult>>('POST', '/api/wallet/deposit', input))
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

export type StatusFilter = 'all' | 'completed' | 'pending'
export type TypeFilter = 'all' | 'deposits' | 'purchases'

export interface TransactionFilters {
  q: string
  status: StatusFilter
  type: TypeFilter
}

export const noFilters: TransactionFilters = { q: '', status: 'all', type: 'all' }

/**
 * The transactions the Transactions tab shows: the search matches the
 * description, the method (its code or label), the amount (as typed: "50",
 * "50.00", "$50.00") and the id; purchases are domain purchases and renewals.
 */
export function filterTransactions(transactions: Transaction[], filters: TransactionFilters): Transaction[] {
  const needle = filters.q.trim().toLowerCase()
  return transactions.filter((t) => {
    if (filters.status !== 'all' && transactionStatus(t.status) !== filters.status) return false
    if (filters.type === 'deposits' && t.type !== 'deposit') return false
    if (filters.type === 'purchases' && t.type !== 'domain_purchase' && t.type !== 'domain_renewal') return false
    if (!needle) return true
    const absolute = Math.abs(t.amount)
    const haystack = [
      t.description ?? '',
      t.paymentMethod,
      paymentMethodLabel(t.paymentMethod),
      String(absolute),
      absolute.toFixed(2),
      `$${absolute.toFixed(2)}`,
      String(t.id),
      `#${t.id}`,
    ]
    return haystack.some((text) => text.toLowerCase().includes(needle))
  })
}
