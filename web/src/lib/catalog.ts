import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api'
import { extensions as fixedExtensions, regularDomainPrice } from './extensions'
import type { Schema } from './schemas'

/** A length-based price rule of an extension (spec section 3). */
export type LengthPriceRule = Schema<'RuleBody'>

/** An extension as GET /api/domain-extensions lists it (active ones only, for the public). */
export type DomainExtension = Schema<'ExtensionBody'>

/** An extension the app offers: the server's, or one of the fixed three while that list is not there. */
export type OfferedExtension = Pick<DomainExtension, 'id' | 'extension' | 'basePrice' | 'description' | 'active'> &
  Partial<DomainExtension>

/** A premium name as GET /api/premium-domains lists it for everyone but admins. */
export type PremiumDomain = Schema<'PremiumBody'>

/** The premium categories (spec section 3), in the spec's order. */
export const premiumCategories = [
  'general',
  'business',
  'technology',
  'education',
  'entertainment',
  'health',
  'finance',
  'travel',
  'sports',
  'lifestyle',
] as const
export type PremiumCategory = (typeof premiumCategories)[number]

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

/** The three extensions of the spec, shown while the server's list loads or when it cannot be read. */
export const fallbackExtensions: OfferedExtension[] = fixedExtensions.map((extension, index) => ({
  id: -(index + 1),
  extension,
  basePrice: regularDomainPrice,
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

/**
 * The price the caller pays now: the server's currentPrice, or, when a list
 * carries only raw fields (an admin's), the list price less a live discount
 * (spec section 9: price × (1 − percent/100), to the cent).
 */
export function currentPriceOf(domain: PremiumDomain): number {
  if (typeof domain.currentPrice === 'number') return domain.currentPrice
  const discount = liveDiscount(domain)
  if (!discount) return domain.price
  return Math.round(domain.price * (100 - discount.percentage)) / 100
}

/** The sort orders of the premium catalogue; none means the server's (featured first, then by name). */
export const premiumSortKeys = ['price-asc', 'price-desc', 'name-asc', 'name-desc'] as const
export type PremiumSort = (typeof premiumSortKeys)[number]

/**
 * The live discount of a premium name, or null. The server zeroes an expired
 * discount; the date is checked here too so a page left open does not keep
 * advertising one.
 */
export function liveDiscount(
  domain: PremiumDomain,
  now: Date = new Date(),
): { percentage: number; validUntil: string | null } | null {
  const percentage = domain.discountPercentage ?? 0
  if (!(percentage > 0) || domain.discountActive === false) return null
  const until = domain.discountValidUntil ?? null
  if (until) {
    const end = new Date(until)
    if (!Number.isNaN(end.getTime()) && end.getTime() < now.getTime()) return null
  }
  return { percentage, validUntil: until }
}
