import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'

export type RecordType = 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS' | 'SRV' | 'CAA'

/** A DNS record of a domain (spec section 3 "DNS record"). */
export interface DnsRecord {
  id: number
  type: RecordType
  /** Relative to the domain: "@" (the domain itself), "www", "*", "a.b". */
  name: string
  content: string
  /** Seconds. */
  ttl: number
  /** MX and SRV only; null otherwise. */
  priority: number | null
}

/** GET /api/domains/{id}/dns: the domain's records. The route starts it; the DNS tab reads it. */
export function dnsRecordsQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/dns`],
    queryFn: getQueryFn<DnsRecord[]>(),
  })
}
