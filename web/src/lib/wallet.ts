import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * The wallet reads shared by the wallet page, the registrar dashboard and the
 * registration dialog.
 */
export type Wallet = Schema<'WalletBody'>

export type TransactionType = Transaction['type']

export type Transaction = Schema<'TransactionBody'>

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
