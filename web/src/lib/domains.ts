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
  /**
   * Where the domain is in its life (issue #7): expiring_soon within 30 days
   * of expiresAt; expired after it, while the grace period lasts (it no longer
   * resolves but can still be renewed). Optional: older servers do not send
   * the lifecycle fields, and the pages then work it out from expiresAt.
   */
  status?: DomainStatus
  /** The end of the grace period: after it an expired domain is released. */
  graceEndsAt?: string
  /** Dollars for one renewal period. */
  renewalPrice?: number
  /** The length of one renewal period in days, usually 365. */
  renewalPeriodDays?: number
}

export type DomainStatus = 'active' | 'expiring_soon' | 'expired'

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
