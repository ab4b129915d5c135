import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** GET /api/registrar/reports: every figure of the Reports tab, computed by the server (money in dollars). */
export type Report = Schema<'Report'>
export type ReportMonth = Schema<'ReportMonth'>
export type ReportExtension = Schema<'ReportExtension'>
export type UpcomingRenewal = Schema<'UpcomingRenewal'>
export type RenewalWindow = Schema<'RenewalWindow'>

/** The reports that download as CSV (GET /api/registrar/reports/{report}.csv). */
export type ReportName = 'activity' | 'spend' | 'extensions' | 'renewals' | 'allowance'

export const REPORTS_URL = '/api/registrar/reports'

/** Where report `name` downloads as CSV: a link, so the browser saves it with the server's file name. */
export function reportCsvUrl(name: ReportName): string {
  return `${REPORTS_URL}/${name}.csv`
}

export function reportsQueryOptions() {
  return queryOptions({
    queryKey: [REPORTS_URL],
    queryFn: getQueryFn<Report>(),
    // The figures follow registrations, renewals and deposits made anywhere
    // (the API, the CLI, the worker's renewals): read them afresh each time
    // the tab opens rather than keeping the first answer forever.
    refetchOnMount: 'always',
  })
}
