import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Transaction } from '@/lib/wallet'
import type { Schema } from '@/lib/schemas'

/** A bank-transfer deposit waiting for an admin, with the account that made it. */
// The document lists only the account fields: huma leaves out the fields of
// the embedded (unexported) transactionBody, which the server does send.
export type PendingDeposit = Transaction & Schema<'PendingDepositBody'>

const PENDING_URL = '/api/admin/deposits'

/** GET /api/admin/deposits: pending bank transfers, oldest first. */
export function pendingDepositsQueryOptions() {
  return queryOptions({
    queryKey: [PENDING_URL],
    queryFn: getQueryFn<PendingDeposit[]>(),
  })
}

/** POST /api/admin/deposits/{id}/confirm or /reject. */
export async function reviewDeposit(id: number, decision: 'confirm' | 'reject'): Promise<Transaction> {
  return unwrap(await apiRequest<ApiEnvelope<Transaction>>('POST', `${PENDING_URL}/${id}/${decision}`))
}
