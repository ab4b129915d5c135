import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, serverMessage, unwrap, type ApiEnvelope } from '@/lib/api'
import type { LengthPriceRule as ServerRule } from '@/lib/catalog'
import type { Schema } from '@/lib/schemas'

/** A length rule as the admin edits it: the server's, without its inForce (the server works that out). */
export type LengthPriceRule = Omit<ServerRule, 'inForce'> & { inForce?: boolean }

/**
 * An extension as GET /api/domain-extensions lists it for an admin: every
 * extension with its whole configuration. dnsApiKey and dnsApiSecret are
 * masked by the server (only their last 4 characters show); sending the
 * masked value back keeps the stored secret.
 */
export type AdminExtension = Schema<'ExtensionBody'>

/** The fields POST and PATCH /api/domain-extensions accept; all optional. */
export type ExtensionInput = Schema<'ExtensionInputBody'>

const URL = '/api/domain-extensions'

/** The same key as the public list, so a change refreshes what search offers too. */
export const adminExtensionsQueryKey = [URL] as const

export function adminExtensionsQueryOptions() {
  return queryOptions({ queryKey: adminExtensionsQueryKey, queryFn: getQueryFn<AdminExtension[]>() })
}

export async function createExtension(body: ExtensionInput): Promise<AdminExtension> {
  return unwrap(await apiRequest<ApiEnvelope<AdminExtension>>('POST', URL, body))
}

export async function updateExtension(id: number, body: ExtensionInput): Promise<AdminExtension> {
  return unwrap(await apiRequest<ApiEnvelope<AdminExtension>>('PATCH', `${URL}/${id}`, body))
}

/** An extension's DNSSEC state, keys and DS records (GET /api/domain-extensions/{id}/dnssec). */
export type ExtensionDNSSEC = Schema<'DnssecBody'>

/** version (the extension's updatedAt) refetches the view once the extension is saved. */
export function extensionDNSSECQueryOptions(id: number, version?: string) {
  return queryOptions({
    queryKey: [`${URL}/${id}/dnssec`, version ?? ''] as const,
    queryFn: getQueryFn<ExtensionDNSSEC>(),
  })
}

/** Starts a KSK rollover of the extension's zone; returns the DNSSEC view after it. */
export async function startKSKRollover(id: number): Promise<ExtensionDNSSEC> {
  return unwrap(await apiRequest<ApiEnvelope<ExtensionDNSSEC>>('POST', `${URL}/${id}/dnssec/ksk-rollover`))
}

/** Confirms the parent registry publishes the new KSK's DS; returns the DNSSEC view after it. */
export async function confirmKSKDS(id: number): Promise<ExtensionDNSSEC> {
  return unwrap(await apiRequest<ApiEnvelope<ExtensionDNSSEC>>('POST', `${URL}/${id}/dnssec/ksk-rollover/ds-confirmed`))
}

export async function deleteExtension(id: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${URL}/${id}`))
}

/** The server's human message, else the error's own text (spec section 8, "{error}"). */
export function errorText(error: unknown): string {
  return serverMessage(error) ?? (error instanceof Error ? error.message : String(error))
}

/** ".inf.nz" → "inf.nz": the advanced form edits the extension without its dot. */
export function withoutDot(extension: string): string {
  return extension.replace(/^\.+/, '')
}

/** "inf.nz" → ".inf.nz". */
export function withDot(extension: string): string {
  return `.${withoutDot(extension)}`
}

/** Whether a rule covers a length another rule covers too. */
export function overlaps(rule: Pick<LengthPriceRule, 'minLength' | 'maxLength'>, rules: LengthPriceRule[]): boolean {
  return rules.some((other) => rule.minLength <= other.maxLength && other.minLength <= rule.maxLength)
}

/** Rules stay sorted by minimum length (spec section 5). */
export function sortRules(rules: LengthPriceRule[]): LengthPriceRule[] {
  return [...rules].sort((a, b) => a.minLength - b.minLength || a.maxLength - b.maxLength)
}

/** Unique, trimmed, non-empty entries of a list typed one per line or comma separated. */
export function parseList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ]
}
