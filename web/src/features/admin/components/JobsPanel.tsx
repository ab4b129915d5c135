import { useState } from 'react'
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Ban, Inbox, LoaderCircle, RotateCcw } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { cx } from '@/lib/classNames'
import {
  cancelJob,
  canCancel,
  canRetry,
  JOB_STATES,
  jobsQueryKey,
  jobsQueryOptions,
  retryJob,
  type Job,
  type JobState,
} from '../api/jobs'

type Filter = JobState | 'all'
type Action = { kind: 'retry' | 'cancel'; job: Job }

// Every state a job may report: River's pending too, which the counts leave out.
const stateLabels: Record<Job['state'], string> = {
  pending: 'Pending',
  available: 'Available',
  scheduled: 'Scheduled',
  running: 'Running',
  retryable: 'Retryable',
  completed: 'Completed',
  cancelled: 'Cancelled',
  discarded: 'Discarded',
}

const stateTones: Record<Job['state'], string> = {
  pending: 'bg-slate-100 text-slate-600 ring-slate-200',
  available: 'bg-brand-50 text-brand-700 ring-brand-200',
  scheduled: 'bg-sky-50 text-sky-700 ring-sky-200',
  running: 'bg-violet-50 text-violet-700 ring-violet-200',
  retryable: 'bg-amber-50 text-amber-800 ring-amber-200',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  cancelled: 'bg-slate-100 text-slate-600 ring-slate-200',
  discarded: 'bg-red-50 text-red-700 ring-red-200',
}

/** The admin dashboard's Jobs tab: the background job queue, refreshed every few seconds. */
export function JobsPanel() {
  const [filter, setFilter] = useState<Filter>('all')
  const [action, setAction] = useState<Action | null>(null)
  const query = useInfiniteQuery(jobsQueryOptions(filter))
  const firstPage = query.data?.pages[0]
  const jobs = query.data?.pages.flatMap((page) => page.jobs ?? []) ?? []
  const counts = firstPage?.counts
  const total = counts ? JOB_STATES.reduce((sum, state) => sum + counts[state], 0) : undefined

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle>Background Jobs</CardTitle>
          <CardDescription>
            Renewals, notifications and clean-ups the workers run, newest first. The list refreshes every few seconds.
          </CardDescription>
        </div>
        <div className="flex items-center gap-3">
          {query.isFetching && !query.isPending && (
            <span className="inline-flex items-center gap-1.5 text-xs text-slate-500">
              <LoaderCircle className="h-3.5 w-3.5 animate-spin" aria-hidden />
              Refreshing
            </span>
          )}
          {/* River's own UI, served by the server (not a route of this app). */}
          <a
            href="/admin/river/"
            className={buttonStyles({ variant: 'outline', size: 'sm' })}
          >
            Open River UI
          </a>
        </div>
      </CardHeader>
      <CardContent className="space-y-5">
        <div role="group" aria-label="Filter jobs by state" className="flex flex-wrap gap-2">
          <FilterChip label="All" count={total} active={filter === 'all'} onClick={() => setFilter('all')} />
          {JOB_STATES.map((state) => (
            <FilterChip
              key={state}
              label={stateLabels[state]}
              count={counts?.[state]}
              active={filter === state}
              onClick={() => setFilter(state)}
            />
          ))}
        </div>

        {query.isPending ? (
          <div className="flex items-center justify-center gap-3 py-12 text-slate-500">
            <Spinner />
            Loading jobs...
          </div>
        ) : query.isError && !query.data ? (
          <div role="alert" className="flex flex-col items-center gap-2 py-12 text-center">
            <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
            <p className="font-medium text-slate-900">Could not load jobs</p>
            <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
          </div>
        ) : jobs.length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-12 text-center">
            <Inbox className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="font-medium text-slate-900">
              {filter === 'all' ? 'No jobs yet' : `No ${stateLabels[filter].toLowerCase()} jobs`}
            </p>
            <p className="text-sm text-slate-500">Jobs appear here as soon as they are queued.</p>
          </div>
        ) : (
          <>
            <JobTable jobs={jobs} onAction={setAction} />
            {query.hasNextPage && (
              <div className="flex justify-center">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => void query.fetchNextPage()}
                  disabled={query.isFetchingNextPage}
                >
                  {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
      {action && (
        <ConfirmAction key={`${action.kind}-${action.job.id}`} action={action} onClose={() => setAction(null)} />
      )}
    </Card>
  )
}

function FilterChip({
  label,
  count,
  active,
  onClick,
}: {
  label: string
  count: number | undefined
  active: boolean
  onClick: () => void
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      aria-label={count === undefined ? label : `${label} (${count})`}
      onClick={onClick}
      className={cx(
        'inline-flex h-8 items-center gap-1.5 rounded-full px-3 text-sm font-medium ring-1 ring-inset transition',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        active ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
      )}
    >
      {label}
      {count !== undefined && (
        <span
          className={cx(
            'min-w-[1.5rem] rounded-full px-1.5 text-center text-xs tabular-nums',
            active ? 'bg-white/20 text-white' : 'bg-slate-100 text-slate-600',
          )}
        >
          {count}
        </span>
      )}
    </button>
  )
}

export function JobStateBadge({ state }: { state: Job['state'] }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        stateTones[state] ?? stateTones.cancelled,
      )}
    >
      {stateLabels[state] ?? state}
    </span>
  )
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' })
const clockFormat = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

/** A local time to the second: the day, then the clock ("Mar 4 10:02:33"); UTC in the tooltip. */
function Time({ value, stacked = false }: { value: string | null; stacked?: boolean }) {
  if (!value) return <span className="text-slate-500">—</span>
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return <>{value}</>
  return (
    <time dateTime={value} title={date.toISOString()} className="whitespace-nowrap tabular-nums">
      {dayFormat.format(date)}
      {stacked ? <br /> : ' '}
      <span className={stacked ? 'text-xs text-slate-500' : undefined}>{clockFormat.format(date)}</span>
    </time>
  )
}

/** A job kind that may wrap after its dots ("account." / "purge_sessions"). */
function KindName({ kind }: { kind: string }) {
  const parts = kind.split('.')
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              .<wbr />
            </>
          )}
        </span>
      ))}
    </>
  )
}

function argsText(args: unknown): string {
  if (args === null || args === undefined) return ''
  const text = JSON.stringify(args)
  return text === '{}' ? '' : text
}

function JobTable({ jobs, onAction }: { jobs: Job[]; onAction: (action: Action) => void }) {
  return (
    // Wide on purpose: on a phone the table scrolls sideways inside the card.
    <div className="-mx-6 overflow-x-auto">
      <table aria-label="Background jobs" className="w-full min-w-[74rem] table-fixed text-left text-sm">
        <colgroup>
          <col className="w-56" />
          <col className="w-28" />
          <col className="w-[5.5rem]" />
          <col className="w-[6.5rem]" />
          <col className="w-[6.5rem]" />
          <col className="w-[6.5rem]" />
          <col />
          <col className="w-56" />
        </colgroup>
        <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-6 py-3">
              Job
            </th>
            <th scope="col" className="px-3 py-3">
              State
            </th>
            <th scope="col" className="px-3 py-3">
              Attempts
            </th>
            <th scope="col" className="px-3 py-3">
              Created
            </th>
            <th scope="col" className="px-3 py-3">
              Scheduled
            </th>
            <th scope="col" className="px-3 py-3">
              Finalized
            </th>
            <th scope="col" className="px-3 py-3">
              Last error
            </th>
            <th scope="col" className="px-6 py-3 text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {jobs.map((job) => {
            const args = argsText(job.args)
            const lastError = job.errors?.at(-1)
            return (
              <tr key={job.id} className="align-top hover:bg-slate-50/60">
                <td className="px-6 py-3">
                  <span className="block break-words font-medium text-slate-900">
                    <KindName kind={job.kind} />
                  </span>
                  <span className="block text-xs text-slate-500">
                    #{job.id} · {job.queue}
                  </span>
                  {args && (
                    <span className="mt-1 block truncate font-mono text-xs text-slate-500" title={args}>
                      {args}
                    </span>
                  )}
                </td>
                <td className="px-3 py-3">
                  <JobStateBadge state={job.state} />
                </td>
                <td className="px-3 py-3 tabular-nums text-slate-700">
                  {job.attempt} / {job.maxAttempts}
                </td>
                <td className="px-3 py-3 text-slate-600">
                  <Time value={job.createdAt} stacked />
                </td>
                <td className="px-3 py-3 text-slate-600">
                  <Time value={job.scheduledAt} stacked />
                </td>
                <td className="px-3 py-3 text-slate-600">
                  <Time value={job.finalizedAt} stacked />
                </td>
                <td className="px-3 py-3">
                  {lastError ? (
                    <>
                      <span className="line-clamp-2 break-words text-red-700" title={lastError.message}>
                        {lastError.message}
                      </span>
                      <span className="block text-xs text-slate-500">
                        Attempt {lastError.attempt} · <Time value={lastError.at} />
                      </span>
                    </>
                  ) : (
                    <span className="text-slate-500">—</span>
                  )}
                </td>
                <td className="px-6 py-2">
                  <div className="flex justify-end gap-1.5">
                    {canRetry(job) && (
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Retry job ${job.id}`}
                        onClick={() => onAction({ kind: 'retry', job })}
                      >
                        <RotateCcw className="h-3.5 w-3.5" aria-hidden />
                        Retry
                      </Button>
                    )}
                    {canCancel(job) && (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Cancel job ${job.id}`}
                        className="text-red-700 hover:bg-red-50 hover:text-red-800"
                        onClick={() => onAction({ kind: 'cancel', job })}
                      >
                        <Ban className="h-3.5 w-3.5" aria-hidden />
                        Cancel
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

const actionTexts = {
  retry: {
    title: (job: Job) => `Retry job #${job.id}?`,
    description: (job: Job) =>
      `${job.kind} runs again as soon as a worker is free${job.attempt >= job.maxAttempts ? ', with one more attempt allowed' : ''}.`,
    confirm: 'Retry job',
    busy: 'Retrying...',
    done: 'Job retried',
    doneText: (job: Job) => `Job #${job.id} (${job.kind}) is queued to run now.`,
    failed: 'Could not retry job',
  },
  cancel: {
    title: (job: Job) => `Cancel job #${job.id}?`,
    description: (job: Job) => `${job.kind} will not run again unless you retry it.`,
    confirm: 'Cancel job',
    busy: 'Cancelling...',
    done: 'Job cancelled',
    doneText: (job: Job) => `Job #${job.id} (${job.kind}) will not run.`,
    failed: 'Could not cancel job',
  },
}

function ConfirmAction({ action, onClose }: { action: Action; onClose: () => void }) {
  const queryClient = useQueryClient()
  const texts = actionTexts[action.kind]
  const mutation = useMutation({
    mutationFn: () => (action.kind === 'retry' ? retryJob(action.job.id) : cancelJob(action.job.id)),
    onSuccess: () => {
      toast({ title: texts.done, description: texts.doneText(action.job) })
      onClose()
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: texts.failed,
        description: serverMessage(error) || 'An unexpected error occurred',
      })
    },
    // The job may have moved on by itself either way: show where it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobsQueryKey }),
  })
  const busy = mutation.isPending

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent hideClose={busy}>
        <DialogHeader>
          <DialogTitle>{texts.title(action.job)}</DialogTitle>
          <DialogDescription>{texts.description(action.job)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Back
          </Button>
          <Button
            variant={action.kind === 'cancel' ? 'destructive' : 'primary'}
            onClick={() => mutation.mutate()}
            disabled={busy}
          >
            {busy ? (
              <>
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                {texts.busy}
              </>
            ) : (
              texts.confirm
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
