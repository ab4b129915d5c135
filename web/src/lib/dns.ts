import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

export type RecordType = DnsRecord['type']

/** A DNS record of a domain (spec section 3 "DNS record"). */
export type DnsRecord = Schema<'RecordBody'>

/** GET /api/domains/{id}/dns: the domain's records. The route starts it; the DNS tab reads it. */
export function dnsRecordsQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/dns`],
    queryFn: getQueryFn<DnsRecord[]>(),
  })
}
