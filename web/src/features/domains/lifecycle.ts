import type { Domain, DomainStatus } from '@/lib/domains'

const DAY_MS = 24 * 60 * 60 * 1000

export interface Lifecycle {
  status: DomainStatus
  /** Whole days until expiry, rounded up (0 on the day itself); negative once expired. */
  daysLeft: number
  /** When an expired domain is released to anyone. */
  graceEndsAt: string
}

/** The domain's status and grace end as the server reports them, and the days left to show. */
export function lifecycleOf(domain: Domain, now: number = Date.now()): Lifecycle {
  const daysLeft = Math.ceil((new Date(domain.expiresAt).getTime() - now) / DAY_MS)
  return { status: domain.status, daysLeft, graceEndsAt: domain.graceEndsAt }
}

/** "in 12 days", "in 1 day", "today". */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft <= 0) return 'today'
  return daysLeft === 1 ? 'in 1 day' : `in ${daysLeft} days`
}

/** Domains needing attention first (expired, then expiring soon), each soonest expiry first. */
const statusRank: Record<DomainStatus, number> = { expired: 0, expiring_soon: 1, active: 2 }

export type DomainSortKey = 'status' | 'domain' | 'expires'
export type SortDirection = 'asc' | 'desc'

export function sortDomains(domains: Domain[], key: DomainSortKey, direction: SortDirection, now = Date.now()) {
  const expiry = (domain: Domain) => new Date(domain.expiresAt).getTime()
  const fullName = (domain: Domain) => `${domain.name}${domain.extension}`
  const compare = (a: Domain, b: Domain): number => {
    if (key === 'domain') return fullName(a).localeCompare(fullName(b))
    if (key === 'status') {
      const byRank = statusRank[lifecycleOf(a, now).status] - statusRank[lifecycleOf(b, now).status]
      if (byRank !== 0) return byRank
    }
    return expiry(a) - expiry(b) || fullName(a).localeCompare(fullName(b))
  }
  const sign = direction === 'asc' ? 1 : -1
  return [...domains].sort((a, b) => sign * compare(a, b))
}

export interface RenewalTerms {
  /** Dollars for one period. */
  price: number
  periodDays: number
  /** "1 year", "2 years" or "90 days". */
  periodText: string
  /** The expiry a renewal now gives, as the server works it out (the current term extended by one period). */
  newExpiresAt: string
}

/** The renewal terms the server sends with the domain, with the period in words. */
export function renewalTermsOf(domain: Domain): RenewalTerms {
  const periodDays = domain.renewalPeriodDays
  const years = periodDays / 365
  const periodText = Number.isInteger(years)
    ? `${years} ${years === 1 ? 'year' : 'years'}`
    : `${periodDays} ${periodDays === 1 ? 'day' : 'days'}`
  return { price: domain.renewalPrice, periodDays, periodText, newExpiresAt: domain.renewedExpiresAt }
}
