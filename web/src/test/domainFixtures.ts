import { lifecycleOf } from '@/features/domains/lifecycle'
import type { Domain } from '@/lib/domains'

type DomainFields = Omit<Domain, 'status' | 'graceEndsAt' | 'renewalPrice' | 'renewalPeriodDays'> & Partial<Domain>

/**
 * A domain as the server sends it: the lifecycle fields a fixture leaves out
 * are filled in (status and grace end as the dashboards would read them from
 * expiresAt now, renewal at the yearly price for 365 days).
 */
export function serverDomain(fields: DomainFields): Domain {
  const withRenewal = { renewalPrice: fields.price, renewalPeriodDays: 365, ...fields }
  const { status, graceEndsAt } = lifecycleOf(withRenewal as Domain)
  return { status, graceEndsAt, ...withRenewal }
}
