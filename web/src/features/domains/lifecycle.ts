import type { Domain, DomainStatus } from '@/lib/domains'

const DAY_MS = 24 * 60 * 60 * 1000
/** The server calls a domain expiring soon within this many days of its expiry. */
const EXPIRING_SOON_DAYS = 30
/** A grace period of the spec's default length, for a server that does not send graceEndsAt. */
const DEFAULT_GRACE_DAYS = 30
const DEFAULT_RENEWAL_DAYS = 365

export interface Lifecycle {
  status: DomainStatus
  /** Whole days until expiry, rounded up (0 on the day itself); negative once expired. */
  daysLeft: number
  /** When an expired domain is released to anyone. */
  graceEndsAt: string
}

/**
 * The domain's status as the server reports it; from expiresAt when the server
 * does not say (an older server), so the dashboards always have one to show.
 */
export function lifecycleOf(domain: Domain, now: number = Date.now()): Lifecycle {
  const expires = new Date(domain.expiresAt).getTime()
  const daysLeft = Math.ceil((expires - now) / DAY_MS)
  const status: DomainStatus =
    domain.status ?? (expires <= now ? 'expired' : daysLeft <= EXPIRING_SOON_DAYS ? 'expiring_soon' : 'active')
  const graceEndsAt = domain.graceEndsAt ?? new Date(expires + DEFAULT_GRACE_DAYS * DAY_MS).toISOString()
  return { status, daysLeft, graceEndsAt }
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
  /** expiresAt moved on by one period: a renewal extends the current term, also in the grace period. */
  newExpiresAt: string
}

export function renewalTermsOf(domain: Domain): RenewalTerms {
  const periodDays = domain.renewalPeriodDays ?? DEFAULT_RENEWAL_DAYS
  const years = periodDays / 365
  const periodText = Number.isInteger(years)
    ? `${years} ${years === 1 ? 'year' : 'years'}`
    : `${periodDays} ${periodDays === 1 ? 'day' : 'days'}`
  // Whole years renew by the calendar (like the server), other periods by days.
  const next = new Date(domain.expiresAt)
  if (Number.isInteger(years)) next.setUTCFullYear(next.getUTCFullYear() + years)
  else next.setTime(next.getTime() + periodDays * DAY_MS)
  const newExpiresAt = next.toISOString()
  return { price: domain.renewalPrice ?? domain.price, periodDays, periodText, newExpiresAt }
}
