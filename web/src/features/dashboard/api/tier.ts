import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { RegistrarTier } from '@/lib/session'
import type { Schema } from '@/lib/schemas'

export type ApplicationStatus = TierApplication['status']

/** A registrar's application for a higher tier. */
export type TierApplication = Schema<'TierApplicationBody'>

export type MyTier = Schema<'MyTierBody'>

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
  return unwrap(
    await apiRequest<ApiEnvelope<TierApplication>>('POST', MY_TIER_URL, {
      tier,
    } satisfies Schema<'ApplyForTierInputBody'>),
  )
}
