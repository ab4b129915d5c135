// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { apiRequest, type ApiEnvelope } from './api'
import type { Schema } from './schemas'

/** GET /api/domains/check: the caller's yearly price (wholesale for a registrar). */
export type DomainCheck = Schema<'CheckBody'>

/** Availability is asked on each search and never cached: it changes as names are registered. */
export function checkDomain({ name, extension }: { name: string; extension: string }) {
  const query = new URLSearchParams({ name, extension })
  return apiRequest<ApiEnvelope<DomainCheck>>('GET', `/api/domains/check?${query}`)
}

export const invalidNameMessage =
  'Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.'

// Spec section 5. The pattern forbids a leading or trailing hyphen and any
// character but letters, digits and hyphens; the message also mentions
// consecutive hyphens, which the pattern (like the server) allows.
export const domainNameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Domain name is required'),
    z.maxLength(63, 'Domain name must be at most 63 characters'),
    z.regex(/^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/, invalidNameMessage),
  )

/** The search form's schema: a valid name and one of the offered extensions. */
export function domainSearchSchema(offered: readonly string[]) {
  return z.object({
    name: domainNameSchema,
    extension: z.string().check(z.refine((value) => offered.includes(value), 'Choose one of the offered extensions')),
  })
}

/** "shop" + ".biz.ee" → "shop.biz.ee" (the check may answer the label with or without its extension). */
export function checkedName(result: DomainCheck): string {
  return result.domain.endsWith(result.extension) ? result.domain : `${result.domain}${result.extension}`
}

/** The label of a check result, without the extension. */
export function checkedLabel(result: DomainCheck): string {
  return result.domain.endsWith(result.extension)
    ? result.domain.slice(0, result.domain.length - result.extension.length)
    : result.domain
}
