import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, type ApiEnvelope } from '@/lib/api'

export interface DomainCheck {
  domain: string
  extension: string
  available: boolean
  isPremium: boolean
  price: number
}

export interface PremiumDomain {
  id: number
  name: string
  extension: string
  price: number
}

/** Availability is asked on each search and never cached: it changes as names are registered. */
export function checkDomain({ name, extension }: { name: string; extension: string }) {
  const query = new URLSearchParams({ name, extension })
  return apiRequest<ApiEnvelope<DomainCheck>>('GET', `/api/domains/check?${query}`)
}

export function premiumDomainsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/premium-domains'],
    queryFn: getQueryFn<PremiumDomain[]>(),
  })
}
