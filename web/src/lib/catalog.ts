import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api'
import { extensions as fixedExtensions } from './extensions'
import { useRules } from './rules'
import type { Schema } from './schemas'

/** A length-based price rule of an extension (spec section 3). */
export type LengthPriceRule = Schema<'RuleBody'>

/** An extension as GET /api/domain-extensions lists it (active ones only, for the public). */
export type DomainExtension = Schema<'ExtensionBody'>

/**
 * An extension the app offers: the server's, or one of the spec's three
 * (names only, no prices) while that list is not there.
 */
export type OfferedExtension = Pick<DomainExtension, 'id' | 'extension' | 'description' | 'active'> &
  Partial<DomainExtension>

/** A premium name as GET /api/premium-domains lists it for everyone but admins. */
export type PremiumDomain = Schema<'PremiumBody'>

/** A premium category; the server lists them (GET /api/rules) and refuses others. */
export type PremiumCategory = string

/** The premium categories in the server's order (spec section 3); empty while they load. */
export function usePremiumCategories(): readonly PremiumCategory[] {
  return useRules()?.premium.categories ?? []
}

/** "technology" → "Technology". */
export function capitalise(word: string): string {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : word
}

export function domainExtensionsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/domain-extensions'],
    queryFn: getQueryFn<DomainExtension[]>(),
  })
}

export function premiumDomainsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/premium-domains'],
    queryFn: getQueryFn<PremiumDomain[]>(),
  })
}

const fixedNotes: Record<(typeof fixedExtensions)[number], string> = {
  '.inf.nz': 'For information sites, projects and personal pages.',
  '.biz.ee': 'For businesses, shops and services.',
  '.orgn.uk': 'For organisations, clubs and communities.',
}

/** The three extensions of the spec, offered in the search while the server's list loads or cannot be read. */
export const fallbackExtensions: OfferedExtension[] = fixedExtensions.map((extension, index) => ({
  id: -(index + 1),
  extension,
  description: fixedNotes[extension],
  active: true,
}))

export const defaultExtension = '.inf.nz'

/**
 * The extensions on sale: the server's active ones, or the fixed three while
 * loading, on failure, or when the server lists none.
 */
export function useExtensions(): { extensions: OfferedExtension[]; fromServer: boolean } {
  const { data } = useQuery(domainExtensionsQueryOptions())
  const active = data?.filter((extension) => extension.active !== false) ?? []
  if (active.length === 0) return { extensions: fallbackExtensions, fromServer: false }
  // The default leads, as in the spec's list; the rest keep the server's order.
  const ordered = [
    ...active.filter((extension) => extension.extension === defaultExtension),
    ...active.filter((extension) => extension.extension !== defaultExtension),
  ]
  return { extensions: ordered, fromServer: true }
}

/** The price the caller pays now: the server's quote (live discount, wholesale for a registrar). */
export function currentPriceOf(domain: PremiumDomain): number {
  return domain.currentPrice
}

/** The sort orders of the premium catalogue; none means the server's (featured first, then by name). */
export const premiumSortKeys = ['price-asc', 'price-desc', 'name-asc', 'name-desc'] as const
export type PremiumSort = (typeof premiumSortKeys)[number]

/** The live discount of a premium name as the server reports it, or null. */
export function liveDiscount(domain: PremiumDomain): { percentage: number; validUntil: string | null } | null {
  if (!domain.discountActive || !(domain.discountPercentage > 0)) return null
  return { percentage: domain.discountPercentage, validUntil: domain.discountValidUntil ?? null }
}
