import { useQuery } from '@tanstack/react-query'
import { AlertCircle, Inbox, RefreshCw } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { DataTable, EmptyState, type Column } from '@/components/ui/DataTable'
import { Spinner } from '@/components/ui/Spinner'
import { forwardingLogQueryOptions, type ForwardingLogEntry } from '../api/forwarding'
import { formatDateTime, formatSize } from '../forwardingText'

/** The last 100 messages for the domain, newest first: forwarded, failed or refused. */
export function ForwardingLog({ domainId, apex }: { domainId: number; apex: string }) {
  const { data, isPending, isError, isFetching, refetch } = useQuery(forwardingLogQueryOptions(domainId))
  const entries = data ?? []

  const columns: Column<ForwardingLogEntry>[] = [
    {
      header: 'Time',
      className: 'whitespace-nowrap tabular-nums text-slate-600',
      cell: (entry) => <time dateTime={entry.time}>{formatDateTime(entry.time)}</time>,
    },
    { header: 'From', className: 'break-all', cell: (entry) => <Sender from={entry.from} /> },
    { header: 'To', className: 'break-all text-slate-900', cell: (entry) => entry.to },
    { header: 'Forwarded to', className: 'break-all', cell: (entry) => entry.forwardTo || '—' },
    { header: 'Size', className: 'whitespace-nowrap tabular-nums text-slate-600', cell: sizeOf },
    { header: 'Outcome', width: 'w-52', cell: (entry) => <Outcome entry={entry} /> },
  ]

  let body
  if (isPending) {
    body = (
      <div className="flex items-center justify-center gap-3 py-12 text-slate-600">
        <Spinner />
        <span>Loading the log...</span>
      </div>
    )
  } else if (isError) {
    body = (
      <div className="flex flex-col items-center gap-4 py-12 text-center">
        <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
        <p className="text-slate-700">Failed to load the forwarding log. Please try again.</p>
        <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
          Retry
        </Button>
      </div>
    )
  } else {
    body = (
      <DataTable
        label="Forwarding log"
        rows={entries}
        rowKey={(entry) => `${entry.time} ${entry.to} ${entry.forwardTo ?? ''} ${entry.outcome}`}
        columns={columns}
        minWidth="min-w-[760px]"
        stackBelow="md"
        rowClassName={() => 'align-top'}
        empty={
          <EmptyState
            className="-mx-6 border-t border-slate-200 px-6"
            icon={
              <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-slate-100 text-slate-500">
                <Inbox className="h-6 w-6" aria-hidden />
              </span>
            }
            title="No messages yet"
            text={`Mail sent to ${apex} shows here once forwarding handles it.`}
          />
        }
        stacked={(entry) => (
          <>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-xs tabular-nums text-slate-500">
                <time dateTime={entry.time}>{formatDateTime(entry.time)}</time>
                {entry.size > 0 && ` · ${formatSize(entry.size)}`}
              </p>
              <OutcomeBadge outcome={entry.outcome} />
            </div>
            {entry.detail && <p className="mt-1 text-xs text-slate-500">{entry.detail}</p>}
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-500">From</dt>
              <dd className="min-w-0 break-all">
                <Sender from={entry.from} />
              </dd>
              <dt className="text-slate-500">To</dt>
              <dd className="min-w-0 break-all text-slate-900">{entry.to}</dd>
              {entry.forwardTo && (
                <>
                  <dt className="text-slate-500">Forwarded to</dt>
                  <dd className="min-w-0 break-all text-slate-900">{entry.forwardTo}</dd>
                </>
              )}
            </dl>
          </>
        )}
      />
    )
  }

  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-4 space-y-0">
        <div className="space-y-1">
          <CardTitle>Forwarding log</CardTitle>
          <CardDescription>The last 100 messages sent to {apex}, newest first.</CardDescription>
        </div>
        {!isPending && (
          <Button
            variant="outline"
            size="sm"
            aria-label="Refresh the log"
            title="Refresh"
            disabled={isFetching}
            onClick={() => void refetch()}
          >
            <RefreshCw className={isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden />
            <span className="hidden sm:inline">Refresh</span>
          </Button>
        )}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  )
}

/** The envelope sender: none for a bounce, and none is kept for a message refused at its address. */
function Sender({ from }: { from: string }) {
  return from ? <span className="text-slate-800">{from}</span> : <span className="text-slate-500">—</span>
}

/** A refused message was never received: it has no size to show. */
function sizeOf(entry: ForwardingLogEntry): string {
  return entry.size > 0 ? formatSize(entry.size) : '—'
}

const outcomes: Record<ForwardingLogEntry['outcome'], { label: string; tone: 'success' | 'premium' | 'muted' }> = {
  forwarded: { label: 'Forwarded', tone: 'success' },
  failed: { label: 'Failed', tone: 'premium' },
  refused: { label: 'Refused', tone: 'muted' },
}

function OutcomeBadge({ outcome }: { outcome: ForwardingLogEntry['outcome'] }) {
  const { label, tone } = outcomes[outcome] ?? { label: outcome, tone: 'muted' }
  return <Badge tone={tone}>{label}</Badge>
}

/** The outcome, with the server's reason when it failed or was refused. */
function Outcome({ entry }: { entry: ForwardingLogEntry }) {
  return (
    <div className="min-w-0">
      <OutcomeBadge outcome={entry.outcome} />
      {entry.detail && <p className="mt-1 break-words text-xs text-slate-500">{entry.detail}</p>}
    </div>
  )
}
