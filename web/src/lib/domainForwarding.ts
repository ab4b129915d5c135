import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * A domain's forwarding: the host names that redirect to another website,
 * how many it may have (the server's limit) and the addresses a forwarded
 * host's A/AAAA records point at.
 */
export type DomainForwarding = Schema<'DomainForwarding'>

export type DomainForward = Schema<'DomainForward'>

/** GET /api/domains/{id}/domain-forwarding. The route starts it; the Domain Forwarding tab reads it. */
export function domainForwardingQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/domain-forwarding`],
    queryFn: getQueryFn<DomainForwarding>(),
  })
}
