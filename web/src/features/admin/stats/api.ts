import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'

export interface StatsDay {
  date: string
  registrations: number
  revenue: number
  deposits: number
}

/** GET /api/admin/stats: every figure of the Statistics tab (money in dollars). */
export interface AdminStats {
  periodDays: number
  totalDomains: number
  totalAccounts: number
  activeRegistrars: number
  registrations: number
  revenue: number
  depositCount: number
  deposits: number
  premiumSales: number
  premiumRevenue: number
  daily: StatsDay[]
  domainsPerExtension: { extension: string; domains: number; premium: number }[]
}

export const STATS_URL = '/api/admin/stats'

export function adminStatsQueryOptions() {
  return queryOptions({
    queryKey: [STATS_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<AdminStats>>('GET', STATS_URL)),
  })
}
