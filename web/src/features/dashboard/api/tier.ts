import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { RegistrarTier } from '@/lib/session'

export type ApplicationStatus = 'pending' | 'approved' | 'declined'

/** A registrar's application for a higher tier. */
export interface TierApplication {
  id: number
  requestedTier: Exclude<RegistrarTier, 'basic'>
  status: ApplicationStatus
  /** The admin's note with a decline. */
  reason?: string
  createdAt: string
  decidedAt: string | null
}

export interface MyTier {
  tier: RegistrarTier
  application: TierApplication | null
}

export const MY_TIER_URL = '/api/registrar/tier-application'

/** GET /api/registrar/tier-application: the registrar's tier and newest application. */
export function myTierQueryOptions() {
  return queryOptions({
    queryKey: [MY_TIER_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<MyTier>>('GET', MY_TIER_URL)),
  })
}

/** POST /api/registrar/tier-application: apply for premium or enterprise. */
export async function applyForTier(tier: Exclude<RegistrarTier, 'basic'>): Promise<TierApplication> {
  return unwrap(await apiRequest<ApiEnvelope<TierApplication>>('POST', MY_TIER_URL, { tier }))
}
