import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Schema } from '@/lib/schemas'
import { renderApp } from '@/test/renderApp'
import { registrar, registrarDefaultKey, server } from '@/test/server'

type RequestLog = Schema<'RequestLog'>

const reader: Schema<'APIKey'> = {
  id: 7,
  name: 'Reader',
  scopes: ['read'],
  allowedAddresses: [],
  createdAt: '2026-02-01T10:00:00Z',
  primary: false,
}

function entry(id: number, over: Partial<RequestLog>): RequestLog {
  return {
    id,
    time: '2026-11-20T14:05:07Z',
    keyId: registrarDefaultKey.id,
    keyName: 'Default',
    method: 'GET',
    path: '/v1/wallet',
    status: 200,
    latencyMs: 1.25,
    requestId: `req-${id}`,
    ...over,
  }
}

/**
 * The registrar's log: 3 entries on a first page and 1 on the next; every
 * query string the panel sends is kept.
 */
function serveLogs() {
  const queries: URLSearchParams[] = []
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    http.get('/api/registrar/keys', () => HttpResponse.json({ success: true, data: [registrarDefaultKey, reader] })),
    http.get('/api/registrar/logs', ({ request }) => {
      const q = new URL(request.url).searchParams
      queries.push(q)
      if (q.get('cursor') === 'c2') {
        return HttpResponse.json({
          success: true,
          data: { logs: [entry(1, { path: '/v1/domains', time: '2026-11-20T13:00:00Z' })] },
        })
      }
      if (q.get('status') === '5xx') return HttpResponse.json({ success: true, data: { logs: [] } })
      return HttpResponse.json({
        success: true,
        data: {
          logs: [
            entry(4, {
              keyId: 7,
              keyName: 'Reader',
              method: 'POST',
              path: '/v1/wallet/deposits',
              status: 403,
              idempotencyKey: 'dep-42',
            }),
            entry(3, { path: '/v1/domains/nope.inf.nz', status: 404, latencyMs: 12.4 }),
            entry(2, {}),
          ],
          nextCursor: 'c2',
        },
      })
    }),
  )
  return queries
}

async function openLogsTab() {
  const view = renderApp('/registrar-dashboard?tab=logs', { user: registrar })
  const table = await screen.findByRole('table', { name: 'Request logs' })
  return { ...view, table }
}

describe('the request logs', () => {
  it('shows each request with its key, status, latency, idempotency key and request id, and pages', async () => {
    serveLogs()
    const { events, table } = await openLogsTab()

    const refused = within(within(table).getByRole('row', { name: /wallet\/deposits/ }))
    expect(refused.getByText('Reader')).toBeInTheDocument()
    expect(refused.getByText('POST')).toBeInTheDocument()
    expect(refused.getByText('403')).toHaveClass('bg-amber-50')
    expect(refused.getByText('dep-42')).toBeInTheDocument()
    expect(refused.getByText('req-4')).toBeInTheDocument()
    expect(refused.getByText('1.3 ms')).toBeInTheDocument()

    const missing = within(within(table).getByRole('row', { name: /nope\.inf\.nz/ }))
    expect(missing.getByText('404')).toBeInTheDocument()
    expect(missing.getByText('12 ms')).toBeInTheDocument()
    expect(missing.getByLabelText('No idempotency key')).toBeInTheDocument()
    expect(within(within(table).getByRole('row', { name: /req-2/ })).getByText('200')).toHaveClass('bg-emerald-50')

    await events.click(screen.getByRole('button', { name: 'Load more' }))
    expect(await within(table).findByRole('row', { name: /req-1/ })).toBeInTheDocument()
    expect(within(table).getAllByRole('row')).toHaveLength(5) // the header and four requests
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
  })

  it('asks the server with the filters chosen, and exports with the same ones', async () => {
    const queries = serveLogs()
    const { events } = await openLogsTab()
    const exportLink = screen.getByRole('link', { name: 'Export CSV' })
    expect(exportLink).toHaveAttribute('href', '/api/registrar/logs.csv')
    expect(exportLink).toHaveAttribute('download')

    await events.selectOptions(screen.getByLabelText('API key'), 'Reader')
    await events.selectOptions(screen.getByLabelText('Status'), '4xx Client error')
    await events.type(screen.getByLabelText('Path'), 'deposits')
    await events.selectOptions(screen.getByLabelText('Time range'), 'Last 24 hours')
    await waitFor(() => {
      const last = queries[queries.length - 1]
      expect(last.get('key')).toBe('7')
      expect(last.get('status')).toBe('4xx')
      expect(last.get('path')).toBe('deposits')
    })
    const last = queries[queries.length - 1]
    const since = Date.parse(last.get('since') ?? '')
    expect(Math.abs(Date.now() - 24 * 3600_000 - since)).toBeLessThan(60_000)

    const href = new URL(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')!, 'http://x')
    expect(href.pathname).toBe('/api/registrar/logs.csv')
    expect(href.searchParams.get('key')).toBe('7')
    expect(href.searchParams.get('status')).toBe('4xx')
    expect(href.searchParams.get('path')).toBe('deposits')
    expect(href.searchParams.get('since')).not.toBeNull()
  })

  it('says when no request matches', async () => {
    serveLogs()
    const { events } = await openLogsTab()
    await events.selectOptions(screen.getByLabelText('Status'), '5xx Server error')
    expect(await screen.findByText('No requests match these filters.')).toBeInTheDocument()
  })
})
