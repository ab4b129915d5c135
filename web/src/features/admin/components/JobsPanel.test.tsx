import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { Job, JobPage, JobState } from '../api/jobs'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

function job(id: number, kind: string, state: JobState, extra: Partial<Job> = {}): Job {
  return {
    id,
    kind,
    state,
    queue: 'default',
    attempt: state === 'available' || state === 'scheduled' ? 0 : 1,
    maxAttempts: 25,
    args: {},
    errors: [],
    createdAt: '2026-03-04T10:00:00Z',
    scheduledAt: '2026-03-04T10:00:00Z',
    attemptedAt: null,
    finalizedAt: null,
    ...extra,
  }
}

const purged = job(1, 'account.purge_sessions', 'completed', {
  attemptedAt: '2026-03-04T10:00:01Z',
  finalizedAt: '2026-03-04T10:00:02Z',
})
const failed = job(2, 'notify.send_mail', 'discarded', {
  attempt: 3,
  maxAttempts: 3,
  args: { to: 'alice@example.com' },
  errors: [
    { attempt: 2, at: '2026-03-04T10:01:00Z', message: 'smtp: connection refused' },
    { attempt: 3, at: '2026-03-04T10:05:00Z', message: 'smtp: mailbox unavailable' },
  ],
  finalizedAt: '2026-03-04T10:05:00Z',
})
const waiting = job(3, 'registration.renew', 'scheduled', { scheduledAt: '2026-03-05T09:00:00Z' })

const counts = { available: 0, scheduled: 1, running: 0, retryable: 0, completed: 1, cancelled: 0, discarded: 1 }

/** Serves the jobs list (filtered by ?state) and records the calls. */
function serveJobs(jobs: Job[] = [waiting, failed, purged], extra: Partial<JobPage> = {}) {
  const state = { jobs: [...jobs], urls: [] as string[], posts: [] as string[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/admin/jobs', ({ request }) => {
      state.urls.push(request.url)
      const filter = new URL(request.url).searchParams.get('state')
      const page: JobPage = {
        counts,
        jobs: state.jobs.filter((j) => !filter || j.state === filter),
        ...extra,
      }
      return HttpResponse.json({ success: true, data: page })
    }),
  )
  return state
}

async function openJobsTab() {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name: 'Jobs' }))
  const panel = within(await screen.findByRole('tabpanel', { name: 'Jobs' }))
  return { ...view, panel }
}

function rowOf(text: string): HTMLElement {
  const table = screen.getByRole('table', { name: 'Background jobs' })
  return within(table)
    .getAllByRole('row')
    .find((row) => row.textContent?.includes(text))!
}

/** Waits until the table has a row for the job kind. */
async function findRow(kind: string) {
  await waitFor(() => expect(rowOf(kind)).toBeDefined(), { timeout: 6000 })
  return rowOf(kind)
}

describe('Jobs tab', () => {
  it('lists the jobs with counts per state, attempts and the last error', async () => {
    serveJobs()
    const { panel } = await openJobsTab()
    expect(await panel.findByRole('table', { name: 'Background jobs' })).toBeInTheDocument()

    const chips = within(panel.getByRole('group', { name: 'Filter jobs by state' }))
    expect(chips.getByRole('button', { name: 'All (3)' })).toHaveAttribute('aria-pressed', 'true')
    expect(chips.getByRole('button', { name: 'Discarded (1)' })).toHaveAttribute('aria-pressed', 'false')
    expect(chips.getByRole('button', { name: 'Running (0)' })).toBeInTheDocument()

    const failedRow = within(rowOf('notify.send_mail'))
    expect(failedRow.getByText('Discarded')).toBeInTheDocument()
    expect(failedRow.getByText('3 / 3')).toBeInTheDocument()
    expect(failedRow.getByText('smtp: mailbox unavailable')).toBeInTheDocument()
    expect(failedRow.queryByText('smtp: connection refused')).not.toBeInTheDocument()
    expect(failedRow.getByText('{"to":"alice@example.com"}')).toBeInTheDocument()
    expect(failedRow.getByRole('button', { name: 'Retry job 2' })).toBeInTheDocument()
    expect(failedRow.queryByRole('button', { name: 'Cancel job 2' })).not.toBeInTheDocument()

    const doneRow = within(rowOf('account.purge_sessions'))
    expect(doneRow.getByText('Completed')).toBeInTheDocument()
    expect(doneRow.queryByRole('button')).not.toBeInTheDocument()

    const waitingRow = within(rowOf('registration.renew'))
    expect(waitingRow.getByRole('button', { name: 'Retry job 3' })).toBeInTheDocument()
    expect(waitingRow.getByRole('button', { name: 'Cancel job 3' })).toBeInTheDocument()
  })

  it('filters by state and says when a state has no jobs', async () => {
    const api = serveJobs()
    const { panel, events } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })

    await events.click(panel.getByRole('button', { name: 'Discarded (1)' }))
    await waitFor(() => expect(api.urls.at(-1)).toContain('state=discarded'))
    await waitFor(() => expect(rowOf('account.purge_sessions')).toBeUndefined())
    expect(rowOf('notify.send_mail')).toBeInTheDocument()
    expect(panel.getByRole('button', { name: 'Discarded (1)' })).toHaveAttribute('aria-pressed', 'true')

    await events.click(panel.getByRole('button', { name: 'Running (0)' }))
    expect(await panel.findByText('No running jobs')).toBeInTheDocument()
  })

  it('shows an empty queue', async () => {
    serveJobs([])
    const { panel } = await openJobsTab()
    expect(await panel.findByText('No jobs yet')).toBeInTheDocument()
  })

  it('retries a job after confirmation and shows the new state', async () => {
    const api = serveJobs()
    server.use(
      http.post('/api/admin/jobs/:id/retry', ({ params }) => {
        api.posts.push(`retry ${params.id}`)
        const retried = { ...failed, state: 'available' as const, maxAttempts: 4 }
        api.jobs = api.jobs.map((j) => (j.id === failed.id ? retried : j))
        return HttpResponse.json({ success: true, data: retried })
      }),
    )
    const { panel, events } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })

    await events.click(panel.getByRole('button', { name: 'Retry job 2' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Retry job #2?' }))
    expect(dialog.getByText(/with one more attempt allowed/)).toBeInTheDocument()
    expect(api.posts).toEqual([])
    await events.click(dialog.getByRole('button', { name: 'Retry job' }))

    expect(await screen.findByText('Job retried')).toBeInTheDocument()
    expect(screen.getByText('Job #2 (notify.send_mail) is queued to run now.')).toBeInTheDocument()
    expect(api.posts).toEqual(['retry 2'])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(within(rowOf('notify.send_mail')).getByText('Available')).toBeInTheDocument())
  })

  it('leaves a job alone when the admin backs out', async () => {
    const api = serveJobs()
    const { panel, events } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })
    await events.click(panel.getByRole('button', { name: 'Cancel job 3' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel job #3?' }))
    await events.click(dialog.getByRole('button', { name: 'Back' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(api.posts).toEqual([])
  })

  it("shows the server's reason when a cancel fails", async () => {
    serveJobs()
    server.use(
      http.post('/api/admin/jobs/:id/cancel', () =>
        HttpResponse.json({ success: false, error: 'The job has already finished (completed)' }, { status: 409 }),
      ),
    )
    const { panel, events } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })
    await events.click(panel.getByRole('button', { name: 'Cancel job 3' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Cancel job #3?' }))
    await events.click(dialog.getByRole('button', { name: 'Cancel job' }))
    expect(await screen.findByText('Could not cancel job')).toBeInTheDocument()
    expect(screen.getByText('The job has already finished (completed)')).toBeInTheDocument()
  })

  it('loads older jobs page by page', async () => {
    const api = serveJobs([waiting], { nextCursor: 'page-2' })
    server.use(
      http.get('/api/admin/jobs', ({ request }) => {
        if (new URL(request.url).searchParams.get('cursor') !== 'page-2') return undefined
        api.urls.push(request.url)
        return HttpResponse.json({ success: true, data: { counts, jobs: [failed, purged] } satisfies JobPage })
      }),
    )
    const { panel, events } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })
    expect(rowOf('notify.send_mail')).toBeUndefined()
    await events.click(panel.getByRole('button', { name: 'Load more' }))
    await findRow('notify.send_mail')
    expect(rowOf('registration.renew')).toBeDefined()
    expect(panel.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('refreshes by itself every few seconds', async () => {
    const api = serveJobs([purged])
    const { panel } = await openJobsTab()
    await panel.findByRole('table', { name: 'Background jobs' })
    api.jobs = [job(4, 'idempotency.purge', 'running'), purged]
    expect(within(await findRow('idempotency.purge')).getByText('Running')).toBeInTheDocument()
  }, 10_000)
})
