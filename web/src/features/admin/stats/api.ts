import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

export type StatsDay = Schema<'StatsDayBody'>

/** GET /api/admin/stats: every figure of the Statistics tab (money in dollars). */
export type AdminStats = Schema<'StatsBody'>

export const STATS_URL = '/api/admin/stats'

export function adminStatsQueryOptions() {
  return queryOptions({
    queryKey: [STATS_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<AdminStats>>('GET', STATS_URL)),
  })
}
