import { useEffect, useState } from 'react'
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, RefreshCw } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { Field, SearchInput, Select } from '@/components/ui/form'
import { cx } from '@/lib/classNames'
import { serverMessage } from '@/lib/api'
import { apiKeysQueryOptions } from '../api/apiKeys'
import {
  exportUrl,
  NO_FILTERS,
  requestLogsQueryOptions,
  TIME_RANGES,
  type RequestLog,
  type RequestLogFilters,
  type StatusClass,
  type TimeRange,
} from '../api/requestLogs'

const STATUS_CLASSES: { value: StatusClass; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: '2xx', label: '2xx Success' },
  { value: '3xx', label: '3xx Redirect' },
  { value: '4xx', label: '4xx Client error' },
  { value: '5xx', label: '5xx Server error' },
]

const statusTones: Record<string, string> = {
  '2': 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  '3': 'bg-sky-50 text-sky-700 ring-sky-200',
  '4': 'bg-amber-50 text-amber-800 ring-amber-200',
  '5': 'bg-red-50 text-red-700 ring-red-200',
}

/** The answer's status, coloured by its class: green success, amber client error, red server error. */
function StatusBadge({ status }: { status: number }) {
  return (
    <span
      className={cx(
        'inline-flex rounded-full px-2 py-0.5 font-mono text-xs font-medium ring-1 ring-inset',
        statusTones[String(status)[0]] ?? 'bg-slate-100 text-slate-700 ring-slate-200',
      )}
    >
      {status}
    </span>
  )
}

const when = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

function Time({ log }: { log: RequestLog }) {
  return (
    <time dateTime={log.time} className="whitespace-nowrap text-slate-700">
      {when.format(new Date(log.time))}
    </time>
  )
}

function Path({ log }: { log: RequestLog }) {
  return (
    <span className="font-mono text-xs text-slate-800 [overflow-wrap:anywhere]">
      <span className="mr-1.5 font-semibold text-slate-500">{log.method}</span>
      {log.path}
    </span>
  )
}

function Mono({ text, label }: { text?: string; label: string }) {
  if (!text)
    return (
      <span className="text-slate-400" aria-label={`No ${label}`}>
        —
      </span>
    )
  return (
    <span className="font-mono text-xs text-slate-600 [overflow-wrap:anywhere]" title={text}>
      {text}
    </span>
  )
}

const latency = (log: RequestLog) => `${log.latencyMs < 10 ? log.latencyMs.toFixed(1) : Math.round(log.latencyMs)} ms`

/**
 * The Request Logs tab: every /v1 request the registrar's keys made in the
 * last 30 days, newest first, filtered by key, status class, path and time
 * range, a page at a time, and downloadable as CSV with the same filters.
 */
export function RequestLogsPanel() {
  const keys = useQuery(apiKeysQueryOptions())
  const [filters, setFilters] = useState<RequestLogFilters>(NO_FILTERS)
  const [pathText, setPathText] = useState('')
  const queryClient = useQueryClient()
  // The path applies once typing pauses, not at every key.
  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.path === pathText ? f : { ...f, path: pathText })), 300)
    return () => clearTimeout(t)
  }, [pathText])
  const logs = useInfiniteQuery(requestLogsQueryOptions(filters))
  const rows = logs.data?.pages.flatMap((p) => p.logs ?? []) ?? []
  const set = <K extends keyof RequestLogFilters>(name: K, value: RequestLogFilters[K]) =>
    setFilters((f) => ({ ...f, [name]: value }))
  const filtered = filters.key !== '' || filters.status !== '' || filters.path !== '' || filters.range !== '30d'

  const columns: Column<RequestLog>[] = [
    { header: 'Time', width: 'w-36', cell: (l) => <Time log={l} /> },
    { header: 'Key', width: 'w-[11%]', className: '[overflow-wrap:anywhere]', cell: (l) => l.keyName },
    { header: 'Request', rowHeader: true, cell: (l) => <Path log={l} /> },
    { header: 'Status', width: 'w-20', cell: (l) => <StatusBadge status={l.status} /> },
    { header: 'Latency', width: 'w-20', align: 'right', className: 'whitespace-nowrap tabular-nums', cell: latency },
    {
      header: 'Idempotency key',
      width: 'w-[14%]',
      cell: (l) => <Mono text={l.idempotencyKey} label="idempotency key" />,
    },
    { header: 'Request ID', width: 'w-[14%]', cell: (l) => <Mono text={l.requestId} label="request id" /> },
  ]

  return (
    <Card>
      <CardHeader className="flex flex-col items-start gap-3 space-y-0 sm:flex-row sm:justify-between sm:gap-4">
        <div className="space-y-1">
          <CardTitle>Request logs</CardTitle>
          <CardDescription>
            Every API request your keys made in the last 30 days. Bodies and secrets are never kept.
          </CardDescription>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => void queryClient.resetQueries({ queryKey: ['/api/registrar/logs'] })}
            disabled={logs.isFetching}
          >
            <RefreshCw className={cx('h-4 w-4', logs.isFetching && 'animate-spin')} aria-hidden />
            Refresh
          </Button>
          <a href={exportUrl(filters)} download className={buttonStyles({ variant: 'outline', size: 'sm' })}>
            <Download className="h-4 w-4" aria-hidden />
            Export CSV
          </a>
        </div>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="API key">
            {(ids) => (
              <Select {...ids} value={filters.key} onChange={(e) => set('key', e.target.value)}>
                <option value="">All keys</option>
                {(keys.data ?? []).map((k) => (
                  <option key={k.id} value={String(k.id)}>
                    {k.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Status">
            {(ids) => (
              <Select {...ids} value={filters.status} onChange={(e) => set('status', e.target.value as StatusClass)}>
                {STATUS_CLASSES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Path">
            {(ids) => (
              <SearchInput
                {...ids}
                value={pathText}
                placeholder="/v1/domains"
                maxLength={1024}
                onChange={(e) => setPathText(e.target.value)}
              />
            )}
          </Field>
          <Field label="Time range">
            {(ids) => (
              <Select {...ids} value={filters.range} onChange={(e) => set('range', e.target.value as TimeRange)}>
                {TIME_RANGES.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>

        {logs.isPending ? (
          <p className="text-sm text-slate-500">Loading your request logs...</p>
        ) : logs.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your request logs could not be loaded. {serverMessage(logs.error) || 'An unexpected error occurred'}
          </p>
        ) : (
          <>
            <DataTable
              label="Request logs"
              rows={rows}
              rowKey={(l) => l.id}
              columns={columns}
              fixed
              stackBelow="md"
              rowClassName={() => 'align-top'}
              empty={
                <p className="rounded-lg border border-dashed border-slate-200 p-6 text-center text-sm text-slate-500">
                  {filtered
                    ? 'No requests match these filters.'
                    : 'No API requests yet. Requests made with your API keys appear here.'}
                </p>
              }
              stacked={(l) => (
                <>
                  <div className="flex items-start justify-between gap-3">
                    <Path log={l} />
                    <StatusBadge status={l.status} />
                  </div>
                  <dl className="mt-2 grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-slate-500">Time</dt>
                    <dd>
                      <Time log={l} />
                    </dd>
                    <dt className="text-slate-500">Key</dt>
                    <dd className="min-w-0 [overflow-wrap:anywhere]">{l.keyName}</dd>
                    <dt className="text-slate-500">Latency</dt>
                    <dd className="tabular-nums">{latency(l)}</dd>
                    <dt className="text-slate-500">Idempotency key</dt>
                    <dd className="min-w-0">
                      <Mono text={l.idempotencyKey} label="idempotency key" />
                    </dd>
                    <dt className="text-slate-500">Request ID</dt>
                    <dd className="min-w-0">
                      <Mono text={l.requestId} label="request id" />
                    </dd>
                  </dl>
                </>
              )}
            />
            {logs.hasNextPage && (
              <div className="flex justify-center">
                <Button variant="outline" onClick={() => void logs.fetchNextPage()} disabled={logs.isFetchingNextPage}>
                  {logs.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}
