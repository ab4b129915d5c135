import type { QueryClient } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import { allowanceQueryOptions } from '@/lib/allowance'
import { domainsQueryOptions } from '@/lib/domains'
import { transactionsQueryOptions, walletQueryOptions } from '@/lib/wallet'
import { premiumDomainsQueryOptions } from '@/lib/catalog'
import type { Schema } from '@/lib/schemas'

export type RegisterDomainInput = Schema<'RegisterDomainInputBody'>

export type RegisterDomainResult = Schema<'RegisteredBody'>

/**
 * POST /api/domains. The Idempotency-Key makes a retry of the same attempt
 * (a double click, a repeat after a lost answer) register and charge once:
 * the server answers a replayed key with the first registration.
 */
export async function registerDomain(input: RegisterDomainInput, idempotencyKey: string) {
  const envelope = await apiRequest<ApiEnvelope<RegisterDomainResult>>('POST', '/api/domains', input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  })
  return unwrap(envelope)
}

/**
 * What a registration changes: the domain list, the wallet, its history, the
 * premium names on sale and a registrar's allowance this month.
 */
export function invalidateAfterRegistration(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: allowanceQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: transactionsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: premiumDomainsQueryOptions().queryKey }),
  ])
}

export { toCents, topUpDollars } from '@/lib/money'
