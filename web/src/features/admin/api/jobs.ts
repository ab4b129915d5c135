import { infiniteQueryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** The states of a background job, in the order a queue moves through them. */
export const JOB_STATES = [
  'available',
  'scheduled',
  'running',
  'retryable',
  'completed',
  'cancelled',
  'discarded',
] as const satisfies readonly (keyof Schema<'JobCountsBody'>)[]

/** A state the queue counts and the Jobs tab filters by. */
export type JobState = (typeof JOB_STATES)[number]

/** The error one attempt of a job ended with. */
export type JobError = Schema<'JobErrorBody'>

/** A background job (River's river_job row) as GET /api/admin/jobs lists it. */
export type Job = Schema<'JobBody'>

export type JobPage = Schema<'JobPageBody'>

/** How often the Jobs tab asks again while it is open. */
export const JOBS_REFRESH_MS = 3000

const JOBS_URL = '/api/admin/jobs'

/**
 * GET /api/admin/jobs, newest first, page by page (nextCursor). Unlike the
 * rest of the app (spec section 7: no polling), the queue changes on its own,
 * so this query refreshes every few seconds while the tab is shown.
 */
export function jobsQueryOptions(state: JobState | 'all') {
  return infiniteQueryOptions({
    queryKey: [JOBS_URL, { state }],
    queryFn: async ({ pageParam }) => {
      const params = new URLSearchParams()
      if (state !== 'all') params.set('state', state)
      if (pageParam) params.set('cursor', pageParam)
      const query = params.toString()
      return unwrap(await apiRequest<ApiEnvelope<JobPage>>('GET', query ? `${JOBS_URL}?${query}` : JOBS_URL))
    },
    initialPageParam: '',
    getNextPageParam: (last: JobPage) => last.nextCursor || undefined,
    refetchInterval: JOBS_REFRESH_MS,
  })
}

/** The key every jobs list shares, to refresh them all after a change. */
export const jobsQueryKey = [JOBS_URL] as const

/** POST /api/admin/jobs/{id}/retry: runs the job again as soon as a worker is free. */
export async function retryJob(id: number): Promise<Job> {
  return unwrap(await apiRequest<ApiEnvelope<Job>>('POST', `${JOBS_URL}/${id}/retry`))
}

/** POST /api/admin/jobs/{id}/cancel: the job does not run (again). */
export async function cancelJob(id: number): Promise<Job> {
  return unwrap(await apiRequest<ApiEnvelope<Job>>('POST', `${JOBS_URL}/${id}/cancel`))
}

/** Jobs an admin may run now: failed, retrying, waiting or cancelled ones. */
export function canRetry(job: Job): boolean {
  return ['retryable', 'scheduled', 'discarded', 'cancelled'].includes(job.state)
}

/** Jobs that have not run to their end yet and are not running. */
export function canCancel(job: Job): boolean {
  return ['available', 'scheduled', 'retryable'].includes(job.state)
}
