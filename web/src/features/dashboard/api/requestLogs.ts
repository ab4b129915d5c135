import { infiniteQueryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** One /v1 request made with one of the registrar's keys. Never its body or a secret. */
export type RequestLog = Schema<'RequestLog'>
export type RequestLogPage = Schema<'RequestLogPage'>

/** A status class the log filters by; '' is any. */
export type StatusClass = '' | '2xx' | '3xx' | '4xx' | '5xx'

/** How far back the log is read; the server keeps 30 days. */
export type TimeRange = '1h' | '24h' | '7d' | '30d'

export const TIME_RANGES: { value: TimeRange; label: string; hours: number }[] = [
  { value: '1h', label: 'Last hour', hours: 1 },
  { value: '24h', label: 'Last 24 hours', hours: 24 },
  { value: '7d', label: 'Last 7 days', hours: 7 * 24 },
  { value: '30d', label: 'Last 30 days', hours: 30 * 24 },
]

/** The dashboard's filters of the log. */
export interface RequestLogFilters {
  /** A key's id, '' for every key. */
  key: string
  status: StatusClass
  /** Text the path contains. */
  path: string
  range: TimeRange
}

export const NO_FILTERS: RequestLogFilters = { key: '', status: '', path: '', range: '30d' }

const logsPath = '/api/registrar/logs'

/**
 * The query string of filters, the same for a page and for the CSV export.
 * The range is counted back from now, when the query is made; the whole
 * 30 days needs no bound.
 */
export function filterQuery(filters: RequestLogFilters, now = Date.now()): URLSearchParams {
  const q = new URLSearchParams()
  if (filters.key) q.set('key', filters.key)
  if (filters.status) q.set('status', filters.status)
  const path = filters.path.trim()
  if (path) q.set('path', path)
  const range = TIME_RANGES.find((r) => r.value === filters.range)
  if (range && range.value !== '30d') q.set('since', new Date(now - range.hours * 3600_000).toISOString())
  return q
}

/** GET /api/registrar/logs.csv with the filters: the export's address, for a download link. */
export function exportUrl(filters: RequestLogFilters, now = Date.now()): string {
  const q = filterQuery(filters, now).toString()
  return `${logsPath}.csv${q ? `?${q}` : ''}`
}

/** GET /api/registrar/logs: the log, newest first, a page at a time (the next by nextCursor). */
export function requestLogsQueryOptions(filters: RequestLogFilters) {
  return infiniteQueryOptions({
    queryKey: [logsPath, filters],
    queryFn: async ({ pageParam }) => {
      const q = filterQuery(filters)
      q.set('limit', '50')
      if (pageParam) q.set('cursor', pageParam)
      return unwrap(await apiRequest<ApiEnvelope<RequestLogPage>>('GET', `${logsPath}?${q.toString()}`))
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor || undefined,
  })
}
