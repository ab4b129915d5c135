import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Transaction } from '@/lib/wallet'
import type { Schema } from '@/lib/schemas'

/** A bank-transfer deposit waiting for an admin, with the account that made it. */
export type PendingDeposit = Schema<'PendingDepositBody'>

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
