import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { DnsRecord, RecordType } from '@/lib/dns'
import type { Schema } from '@/lib/schemas'

export { dnsRecordsQueryOptions, type DnsRecord, type RecordType } from '@/lib/dns'

/** The record types the dialog offers, in the order of its type select (default A). */
export const RECORD_TYPES: readonly RecordType[] = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA']

/** What POST and PUT send: priority only for MX (SRV carries it in its content). */
export type RecordInput = Schema<'RecordInputBody'>

/** POST /api/domains/{id}/dns: adds a record; answers it (201). */
export async function createRecord(domainId: number | string, input: RecordInput): Promise<DnsRecord> {
  return unwrap(await apiRequest<ApiEnvelope<DnsRecord>>('POST', `/api/domains/${domainId}/dns`, input))
}

/** PUT /api/domains/{id}/dns/{recordId}: replaces a record's fields; answers the record. */
export async function updateRecord(
  domainId: number | string,
  recordId: number,
  input: RecordInput,
): Promise<DnsRecord> {
  return unwrap(await apiRequest<ApiEnvelope<DnsRecord>>('PUT', `/api/domains/${domainId}/dns/${recordId}`, input))
}

/** DELETE /api/domains/{id}/dns/{recordId}. */
export async function deleteRecord(domainId: number | string, recordId: number): Promise<void> {
  const envelope = await apiRequest<ApiEnvelope<unknown> | undefined>(
    'DELETE',
    `/api/domains/${domainId}/dns/${recordId}`,
  )
  if (envelope && !envelope.success) throw new Error(envelope.error || 'The server did not complete the request')
}

/** A BIND zone file and the name to save it under. */
export type ZoneFile = Schema<'ZoneFileBody'>

/** GET /api/domains/{id}/zone: the domain's records as a BIND zone file. */
export async function exportZone(domainId: number | string): Promise<ZoneFile> {
  return unwrap(await apiRequest<ApiEnvelope<ZoneFile>>('GET', `/api/domains/${domainId}/zone`))
}

/** What importing a zone file does: the file's records replace the domain's. */
export type ImportPlan = Schema<'PlanBody'>

/** POST /api/domains/{id}/zone/preview: what importing would do; changes nothing. */
export async function previewImport(
  domainId: number | string,
  zoneFile: string,
  delegate = false,
): Promise<ImportPlan> {
  return unwrap(
    await apiRequest<ApiEnvelope<ImportPlan>>(
      'POST',
      `/api/domains/${domainId}/zone/preview`,
      importBody(zoneFile, delegate),
    ),
  )
}

/** The body of a preview or an import: delegate is sent only when chosen. */
function importBody(zoneFile: string, delegate: boolean): Schema<'ZoneImportInputBody'> {
  return delegate ? { zoneFile, delegate } : { zoneFile }
}

/** POST /api/domains/{id}/zone/import: applies the file; answers what it did. */
export async function applyImport(domainId: number | string, zoneFile: string, delegate = false): Promise<ImportPlan> {
  return unwrap(
    await apiRequest<ApiEnvelope<ImportPlan>>(
      'POST',
      `/api/domains/${domainId}/zone/import`,
      importBody(zoneFile, delegate),
    ),
  )
}
