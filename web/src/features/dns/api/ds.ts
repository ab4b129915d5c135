import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** A DS record of a delegated domain (DNSSEC). */
export type DsRecord = Schema<'DS'>

/** What POST /api/domains/{id}/ds sends. */
export type DsInput = Schema<'DSInput'>

/** The algorithms the server accepts (zone's rule), with their names, for the select. */
export const DS_ALGORITHMS: readonly { value: number; label: string }[] = [
  { value: 13, label: '13 — ECDSA P-256 / SHA-256' },
  { value: 14, label: '14 — ECDSA P-384 / SHA-384' },
  { value: 15, label: '15 — Ed25519' },
  { value: 16, label: '16 — Ed448' },
  { value: 8, label: '8 — RSA / SHA-256' },
  { value: 10, label: '10 — RSA / SHA-512' },
]

/** The digest types the server accepts. */
export const DS_DIGEST_TYPES: readonly { value: number; label: string }[] = [
  { value: 2, label: '2 — SHA-256' },
  { value: 4, label: '4 — SHA-384' },
]

/** GET /api/domains/{id}/ds: the domain's DS records. */
export function dsQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/ds`],
    queryFn: getQueryFn<DsRecord[]>(),
  })
}

/** POST /api/domains/{id}/ds: adds a DS record; answers it (201). */
export async function createDs(domainId: number | string, input: DsInput): Promise<DsRecord> {
  return unwrap(await apiRequest<ApiEnvelope<DsRecord>>('POST', `/api/domains/${domainId}/ds`, input))
}

/** DELETE /api/domains/{id}/ds/{dsId}. */
export async function deleteDs(domainId: number | string, dsId: number): Promise<void> {
  const envelope = await apiRequest<ApiEnvelope<unknown> | undefined>('DELETE', `/api/domains/${domainId}/ds/${dsId}`)
  if (envelope && !envelope.success) throw new Error(envelope.error || 'The server did not complete the request')
}
