import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { PremiumDomain } from '@/lib/catalog'
import type { Schema } from '@/lib/schemas'
import type { TableSort } from '@/components/ui/DataTable'

/** A premium name as GET /api/premium-domains lists it for an admin: every field is there. */
export type AdminPremiumDomain = PremiumDomain

/** The fields POST and PUT accept; PUT takes any subset (the toggles send one). */
export type PremiumDomainInput = Schema<'PremiumInputBody'>

export type BulkAction = Schema<'BulkInputBody'>['action']

const ADMIN_URL = '/api/admin/premium-domains'
const PUBLIC_URL = '/api/premium-domains'

/**
 * GET /api/premium-domains as an admin: every name, reserved ones too, with
 * all fields. Its key extends the public list's, so invalidating
 * premiumDomainsKey refreshes both (the landing teaser too), and a list
 * cached before signing in is not mistaken for the admin's.
 */
export function adminPremiumDomainsQueryOptions() {
  return queryOptions({
    queryKey: [PUBLIC_URL, { admin: true }],
    queryFn: getQueryFn<AdminPremiumDomain[]>(),
  })
}

/** The prefix of every premium list key. */
export const premiumDomainsKey = [PUBLIC_URL] as const

export async function createPremiumDomain(input: PremiumDomainInput): Promise<AdminPremiumDomain> {
  return unwrap(await apiRequest<ApiEnvelope<AdminPremiumDomain>>('POST', ADMIN_URL, input))
}

export async function updatePremiumDomain(id: number, input: PremiumDomainInput): Promise<AdminPremiumDomain> {
  return unwrap(await apiRequest<ApiEnvelope<AdminPremiumDomain>>('PUT', `${ADMIN_URL}/${id}`, input))
}

export async function deletePremiumDomain(id: number): Promise<void> {
  await apiRequest('DELETE', `${ADMIN_URL}/${id}`)
}

export async function bulkPremiumDomains(action: BulkAction, ids: number[]): Promise<number> {
  const res = await apiRequest<ApiEnvelope<Schema<'BulkResultBody'>>>('POST', `${ADMIN_URL}/bulk`, {
    action,
    ids,
  } satisfies Schema<'BulkInputBody'>)
  return unwrap(res).changed
}

// ---- Filtering, sorting and export: pure, so the tests can pin them down ----

export type StatusFilter = 'all' | 'available' | 'reserved'

export interface PremiumFilters {
  search: string
  category: string // 'all' or a category
  status: StatusFilter
  featuredOnly: boolean
}

export const defaultFilters: PremiumFilters = { search: '', category: 'all', status: 'all', featuredOnly: false }

export function filtersActive(filters: PremiumFilters): boolean {
  return (
    filters.search.trim() !== '' || filters.category !== 'all' || filters.status !== 'all' || filters.featuredOnly
  )
}

/** The names matching the search (name, extension, description, keywords) and the filters. */
export function filterDomains(domains: AdminPremiumDomain[], filters: PremiumFilters): AdminPremiumDomain[] {
  const term = filters.search.trim().toLowerCase()
  return domains.filter((domain) => {
    if (term) {
      const haystack = [domain.name + domain.extension, domain.description ?? '', ...(domain.keywords ?? [])]
        .join(' ')
        .toLowerCase()
      if (!haystack.includes(term)) return false
    }
    if (filters.category !== 'all' && domain.category !== filters.category) return false
    if (filters.status === 'available' && !domain.isAvailable) return false
    if (filters.status === 'reserved' && domain.isAvailable) return false
    if (filters.featuredOnly && !domain.featured) return false
    return true
  })
}

export type SortKey = 'name' | 'price' | 'discount'
export type SortState = TableSort<SortKey>

export const defaultSort: SortState = { key: 'name', direction: 'asc' }


export function sortDomains(domains: AdminPremiumDomain[], sort: SortState): AdminPremiumDomain[] {
  const sign = sort.direction === 'asc' ? 1 : -1
  const byName = (a: AdminPremiumDomain, b: AdminPremiumDomain) =>
    (a.name + a.extension).localeCompare(b.name + b.extension)
  return [...domains].sort((a, b) => {
    let diff = 0
    if (sort.key === 'price') diff = a.price - b.price
    else if (sort.key === 'discount') diff = (a.discountPercentage ?? 0) - (b.discountPercentage ?? 0)
    else diff = byName(a, b)
    return diff !== 0 ? diff * sign : byName(a, b)
  })
}

/** "seo, short , ,brand" → ["seo", "short", "brand"]. */
export function splitKeywords(text: string): string[] {
  return text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter(Boolean)
}

export const CSV_COLUMNS = [
  'ID',
  'Name',
  'Extension',
  'Price',
  'Status',
  'Discount',
  'Valid Until',
  'Featured',
  'Category',
  'Description',
  'Keywords',
] as const

function csvCell(value: string | number): string {
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The day part of a server time ("2026-12-31T23:59:59Z" → "2026-12-31"), or ''. */
export function dayOf(value: string | null | undefined): string {
  return value ? value.slice(0, 10) : ''
}

/** The CSV of the given names: the spec's columns, one row per name. */
export function premiumDomainsCsv(domains: AdminPremiumDomain[]): string {
  const rows = domains.map((d) =>
    [
      d.id,
      d.name,
      d.extension,
      d.price.toFixed(2),
      d.isAvailable ? 'Available' : 'Reserved',
      `${d.discountPercentage ?? 0}%`,
      dayOf(d.discountValidUntil),
      d.featured ? 'Yes' : 'No',
      d.category ?? '',
      d.description ?? '',
      (d.keywords ?? []).join('; '),
    ]
      .map(csvCell)
      .join(','),
  )
  return [CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n'
}

/** premium-domains-2026-11-22.csv, with the local date. */
export function csvFileName(now: Date = new Date()): string {
  return `premium-domains-${localDay(now)}.csv`
}

/** The local calendar day as YYYY-MM-DD. */
export function localDay(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
