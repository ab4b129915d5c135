import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'
import type { Report, ReportMonth } from '../api/reports'

const allowance = {
  tier: 'basic' as const,
  limit: 100,
  used: 2,
  remaining: 98,
  periodStart: '2026-11-01T00:00:00Z',
  resetsAt: '2026-12-01T00:00:00Z',
}

function months(filled: Partial<Record<string, Partial<ReportMonth>>> = {}): ReportMonth[] {
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(2025, 11 + i, 1))
    const month = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
    return {
      month,
      registrations: 0,
      renewals: 0,
      registrationSpend: 0,
      renewalSpend: 0,
      otherSpend: 0,
      totalSpend: 0,
      ...filled[month],
    }
  })
}

const busy: Report = {
  generatedAt: '2026-11-22T12:00:00Z',
  months: months({
    '2026-01': { registrations: 2, registrationSpend: 506, totalSpend: 506 },
    '2026-06': { renewals: 1, renewalSpend: 6, totalSpend: 6 },
    '2026-11': { registrations: 2, registrationSpend: 12, totalSpend: 12 },
  }),
  extensions: [
    { extension: '.inf.nz', domains: 7, active: 5, expired: 2 },
    { extension: '.biz.ee', domains: 1, active: 1, expired: 0 },
  ],
  renewals: [
    {
      domain: 'oldie.inf.nz',
      expiresAt: '2026-11-20T12:00:00Z',
      graceEndsAt: '2026-12-20T12:00:00Z',
      status: 'expired',
      price: 6,
      autoRenew: true,
      premium: false,
      windowDays: 30,
    },
    {
      domain: 'cloud.inf.nz',
      expiresAt: '2027-01-12T12:00:00Z',
      graceEndsAt: '2027-02-11T12:00:00Z',
      status: 'active',
      price: 500,
      autoRenew: false,
      premium: true,
      windowDays: 60,
    },
  ],
  renewalWindows: [
    { days: 30, domains: 1, total: 6, autoRenewTotal: 6, balanceNeeded: 0 },
    { days: 60, domains: 2, total: 506, autoRenewTotal: 6, balanceNeeded: 60 },
    { days: 90, domains: 2, total: 506, autoRenewTotal: 6, balanceNeeded: 60 },
  ],
  balance: 446,
  currency: 'USD',
  allowance,
}

const fresh: Report = {
  generatedAt: '2026-11-22T12:00:00Z',
  months: months(),
  extensions: [],
  renewals: [],
  renewalWindows: ([30, 60, 90] as const).map((days) => ({
    days,
    domains: 0,
    total: 0,
    autoRenewTotal: 0,
    balanceNeeded: 0,
  })),
  balance: 0,
  currency: 'USD',
  allowance: { ...allowance, used: 0, remaining: 100 },
}

function serveReports(report: Report) {
  let reads = 0
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () =>
      HttpResponse.json({ success: true, data: { balance: report.balance, currency: 'USD' } }),
    ),
    http.get('/api/registrar/allowance', () => HttpResponse.json({ success: true, data: report.allowance })),
    http.get('/api/registrar/reports', () => {
      reads++
      return HttpResponse.json({ success: true, data: report })
    }),
  )
  return { reads: () => reads }
}

// Tremor's charts measure their container; jsdom has no ResizeObserver.
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
})

describe('the Reports tab', () => {
  it("shows the server's figures, the renewals due and a CSV link per report", async () => {
    serveReports(busy)
    renderApp('/registrar-dashboard?tab=reports', { user: registrar })

    const figures = await screen.findByRole('region', { name: 'Key figures' })
    expect(within(figures).getByText('Registrations').nextElementSibling).toHaveTextContent('4')
    expect(within(figures).getByText('Renewals').nextElementSibling).toHaveTextContent('1')
    expect(within(figures).getByText('Spent').nextElementSibling).toHaveTextContent('$524.00')
    expect(within(figures).getByText('Due within 30 days').nextElementSibling).toHaveTextContent('$6.00')

    // The windows: cost, and what the balance lacks.
    const windows = within(screen.getByRole('list', { name: 'Renewal windows' })).getAllByRole('listitem')
    expect(windows[0]).toHaveTextContent('Within 30 days$6.001 domain · $6 on auto-renewYour balance covers them')
    expect(windows[1]).toHaveTextContent('Within 60 days$506.002 domains · $6 on auto-renewAdd $60.00 to cover them')
    expect(screen.getByText(/^Windows are cumulative/)).toHaveTextContent('Wallet balance $446.00.')

    // The domains due, soonest first.
    const table = screen.getByRole('table', { name: 'Domains due for renewal' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toHaveTextContent('oldie.inf.nzNov 20, 2026Expired · in grace30 days$6.00On')
    expect(rows[1]).toHaveTextContent('cloud.inf.nzJan 12, 2027Active60 days$500.00Off')

    // Domains by extension, and the allowance.
    expect(screen.getByText('.biz.ee', { selector: 'li span' })).toBeInTheDocument()
    expect(screen.getByText('· 2 expired')).toBeInTheDocument()
    const usage = screen.getByRole('region', { name: 'Registrations this month' })
    expect(await within(usage).findByText('2 of 100 this month · resets Dec 1')).toBeInTheDocument()

    // Every report downloads as CSV.
    const links = screen.getAllByRole('link', { name: /^Export CSV/ })
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/api/registrar/reports/activity.csv',
      '/api/registrar/reports/spend.csv',
      '/api/registrar/reports/renewals.csv',
      '/api/registrar/reports/extensions.csv',
      '/api/registrar/reports/allowance.csv',
    ])
    expect(screen.getByRole('link', { name: 'Export CSV: Spend per month' })).toHaveAttribute('download')
  })

  it('says what shows once a new registrar has data', async () => {
    serveReports(fresh)
    renderApp('/registrar-dashboard?tab=reports', { user: registrar })
    expect(await screen.findByText('No registrations or renewals in the last 12 months yet.')).toBeInTheDocument()
    expect(screen.getByText('Nothing paid from the wallet in the last 12 months yet.')).toBeInTheDocument()
    expect(screen.getByText('No domains yet: the domains you register show here.')).toBeInTheDocument()
    expect(screen.getByText('Nothing due for renewal in the next 90 days.')).toBeInTheDocument()
    expect(screen.getAllByText('Nothing due')).toHaveLength(3)
    const usage = screen.getByRole('region', { name: 'Registrations this month' })
    expect(await within(usage).findByText('0 of 100 this month · resets Dec 1')).toBeInTheDocument()
  })

  it('reads the figures again each time the tab opens', async () => {
    const served = serveReports(fresh)
    const { events } = renderApp('/registrar-dashboard?tab=reports', { user: registrar })
    await screen.findByRole('region', { name: 'Key figures' })
    expect(served.reads()).toBe(1)
    await events.click(screen.getByRole('tab', { name: 'Domains' }))
    await events.click(screen.getByRole('tab', { name: 'Reports' }))
    await screen.findByRole('region', { name: 'Key figures' })
    expect(served.reads()).toBe(2)
  })

  it("shows the server's message when the reports cannot be read", async () => {
    serveReports(fresh)
    server.use(
      http.get('/api/registrar/reports', () =>
        HttpResponse.json({ success: false, error: 'Only registrar accounts have reports' }, { status: 403 }),
      ),
    )
    renderApp('/registrar-dashboard?tab=reports', { user: registrar })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Could not load reports')
    expect(alert).toHaveTextContent('Only registrar accounts have reports')
  })
})
