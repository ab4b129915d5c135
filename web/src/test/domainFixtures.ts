import type { Domain } from '@/lib/domains'

type DomainFields = Omit<Domain, 'status' | 'graceEndsAt' | 'renewalPrice' | 'renewalPeriodDays' | 'renewedExpiresAt'> &
  Partial<Domain>

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * A domain as the server sends it, for tests: the lifecycle fields a fixture
 * leaves out are filled in as a server with the default terms would (30 days
 * expiring soon, 30 days of grace, renewal at the yearly price for a year).
 * The app itself never works these out: it shows the server's.
 */
export function serverDomain(fields: DomainFields): Domain {
  const expires = new Date(fields.expiresAt)
  const left = expires.getTime() - Date.now()
  const status = left <= 0 ? 'expired' : left <= 30 * DAY_MS ? 'expiring_soon' : 'active'
  const renewed = new Date(expires)
  renewed.setUTCFullYear(renewed.getUTCFullYear() + 1)
  return {
    status,
    graceEndsAt: new Date(expires.getTime() + 30 * DAY_MS).toISOString(),
    renewalPrice: fields.price,
    renewalPeriodDays: 365,
    renewedExpiresAt: renewed.toISOString(),
    ...fields,
  }
}
