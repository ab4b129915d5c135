import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Domain } from '@/lib/domains'

export { domainQueryOptions, domainsQueryOptions, type Domain } from '@/lib/domains'

/** PATCH /api/domains/{id}: turns auto-renewal on or off; answers the updated domain. */
export async function setAutoRenew(id: number | string, autoRenew: boolean): Promise<Domain> {
  return unwrap(await apiRequest<ApiEnvelope<Domain>>('PATCH', `/api/domains/${id}`, { autoRenew }))
}
