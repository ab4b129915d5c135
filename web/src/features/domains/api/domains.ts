import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import { domainQueryOptions, domainsQueryOptions, type Domain } from '@/lib/domains'
import { transactionsQueryOptions, walletQueryOptions } from '@/lib/wallet'
import type { Schema } from '@/lib/schemas'

export { domainQueryOptions, domainsQueryOptions, type Domain, type DomainStatus } from '@/lib/domains'
export { walletQueryOptions } from '@/lib/wallet'

/** PATCH /api/domains/{id}: turns auto-renewal on or off; answers the updated domain. */
export async function setAutoRenew(id: number | string, autoRenew: boolean): Promise<Domain> {
  return unwrap(await apiRequest<ApiEnvelope<Domain>>('PATCH', `/api/domains/${id}`, { autoRenew }))
}

/** Turning auto-renewal on or off; the domain and the list are refreshed. */
export function useSetAutoRenew(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (autoRenew: boolean) => setAutoRenew(id, autoRenew),
    onSuccess: (updated) => {
      queryClient.setQueryData(domainQueryOptions(id).queryKey, updated)
      void queryClient.invalidateQueries({ queryKey: domainQueryOptions(id).queryKey })
      void queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey })
    },
  })
}

export type RenewDomainResult = Schema<'RegisteredBody'>

/**
 * POST /api/domains/{id}/renew: one renewal period, paid from the wallet.
 * The Idempotency-Key makes a retry of the same attempt (a double click, a
 * repeat after a lost answer) renew and charge once. Fails with 402 when the
 * wallet is short, 422 past the furthest paid-up date, 404 for another's domain.
 */
export async function renewDomain(id: number | string, idempotencyKey: string): Promise<RenewDomainResult> {
  const envelope = await apiRequest<ApiEnvelope<RenewDomainResult>>(
    'POST',
    `/api/domains/${id}/renew`,
    {},
    { headers: { 'Idempotency-Key': idempotencyKey } },
  )
  return unwrap(envelope)
}

/**
 * Renewing one domain under one Idempotency-Key (one per dialog opening). On
 * success the answer's domain and wallet go into the cache at once, and the
 * domain, the list, the wallet and its history are fetched again.
 */
export function useRenewDomain(id: number, idempotencyKey: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => renewDomain(id, idempotencyKey),
    onSuccess: ({ domain, wallet }) => {
      queryClient.setQueryData(domainQueryOptions(id).queryKey, domain)
      queryClient.setQueryData(walletQueryOptions().queryKey, wallet)
      // Not awaited: the dialog closes and says so without waiting for the refetches.
      for (const queryKey of [
        domainQueryOptions(id).queryKey,
        domainsQueryOptions().queryKey,
        walletQueryOptions().queryKey,
        transactionsQueryOptions().queryKey,
      ]) {
        void queryClient.invalidateQueries({ queryKey })
      }
    },
  })
}

export { toCents, topUpDollars } from '@/lib/money'
