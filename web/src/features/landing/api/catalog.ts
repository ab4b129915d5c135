import { apiRequest, type ApiEnvelope } from '@/lib/api'

/** GET /api/domains/check: the caller's yearly price (wholesale for a registrar). */
export interface DomainCheck {
  /** The label, lower-cased. */
  domain: string
  extension: string
  available: boolean
  isPremium: boolean
  price: number
  renewalPrice?: number
  /** Why a name is not available. */
  reason?: 'registered' | 'reserved' | 'premium_reserved'
  /** The promotion that sets the price, when one does. */
  promotion?: string
}

/** Availability is asked on each search and never cached: it changes as names are registered. */
export function checkDomain({ name, extension }: { name: string; extension: string }) {
  const query = new URLSearchParams({ name, extension })
  return apiRequest<ApiEnvelope<DomainCheck>>('GET', `/api/domains/check?${query}`)
}
