import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'

/** A registered domain (spec section 3), shared by the dashboards, the domain page and registration. */
export interface Domain {
  id: number
  /** The label, without the extension. */
  name: string
  /** The parent domain with its leading dot, e.g. ".inf.nz". */
  extension: string
  isPremium: boolean
  registeredAt: string
  expiresAt: string
  autoRenew: boolean
  /** Yearly price in dollars. */
  price: number
}

export function domainsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/domains'],
    queryFn: getQueryFn<Domain[]>(),
  })
}

export function domainQueryOptions(id: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${id}`],
    queryFn: getQueryFn<Domain>(),
  })
}
