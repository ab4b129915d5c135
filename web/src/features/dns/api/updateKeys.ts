import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** A key that signs RFC 2136 dynamic updates of a domain (TSIG). */
export type UpdateKey = Schema<'UpdateKey'>

/** What POST /api/domains/{id}/update-keys sends. */
export type UpdateKeyInput = Schema<'UpdateKeyInput'>

/** A key just made, with its secret (shown once). */
export type NewUpdateKey = Schema<'NewUpdateKey'>

/** GET /api/domains/{id}/update-keys: the domain's update keys. */
export function updateKeysQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/update-keys`],
    queryFn: getQueryFn<UpdateKey[]>(),
  })
}

/** POST /api/domains/{id}/update-keys: makes a key; answers it with its secret (201). */
export async function createUpdateKey(domainId: number | string, input: UpdateKeyInput): Promise<NewUpdateKey> {
  return unwrap(await apiRequest<ApiEnvelope<NewUpdateKey>>('POST', `/api/domains/${domainId}/update-keys`, input))
}

/** DELETE /api/domains/{id}/update-keys/{keyId}. */
export async function revokeUpdateKey(domainId: number | string, keyId: number): Promise<void> {
  const envelope = await apiRequest<ApiEnvelope<unknown> | undefined>(
    'DELETE',
    `/api/domains/${domainId}/update-keys/${keyId}`,
  )
  if (envelope && !envelope.success) throw new Error(envelope.error || 'The server did not complete the request')
}
