import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { DomainForward } from '@/lib/domainForwarding'
import type { Schema } from '@/lib/schemas'

export { domainForwardingQueryOptions, type DomainForward, type DomainForwarding } from '@/lib/domainForwarding'

/** What forwarding a host changes in its records: the records it adds, and those of its own it replaces. */
export type ForwardPreview = Schema<'DomainForwardPreview'>

/** A forward as the dialog sends it; the server checks the target and the status. */
export type ForwardInput = Omit<Schema<'DomainForwardRequest'>, 'replaceRecords'>

/** The host of the domain itself. */
export const APEX_HOST = '@'

function forwardPath(domainId: number | string, host: string): string {
  return `/api/domains/${domainId}/domain-forwarding/${encodeURIComponent(host)}`
}

/**
 * GET …/domain-forwarding/{host}/preview: the records forwarding host adds
 * and replaces (422 for a bad host, 409 when the name is delegated).
 */
export async function previewForward(domainId: number | string, host: string): Promise<ForwardPreview> {
  return unwrap(await apiRequest<ApiEnvelope<ForwardPreview>>('GET', `${forwardPath(domainId, host)}/preview`))
}

/**
 * PUT …/domain-forwarding/{host}: forwards host (or changes its forward).
 * Records of the host's own make a 409 naming them unless replaceRecords is set.
 */
export async function setForward(
  domainId: number | string,
  host: string,
  input: ForwardInput,
  replaceRecords = false,
): Promise<DomainForward> {
  const body: Schema<'DomainForwardRequest'> = replaceRecords ? { ...input, replaceRecords } : input
  return unwrap(await apiRequest<ApiEnvelope<DomainForward>>('PUT', forwardPath(domainId, host), body))
}

/** DELETE …/domain-forwarding/{host}: stops forwarding host and removes the records forwarding added. */
export async function deleteForward(domainId: number | string, host: string): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', forwardPath(domainId, host)))
}
