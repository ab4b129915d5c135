import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { AdminStats } from '../api'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

const stats: AdminStats = {
  periodDays: 30,
  totalDomains: 1234,
  totalAccounts: 57,
  activeRegistrars: 7,
  registrations: 321,
  revenue: 2568,
  depositCount: 12,
  deposits: 4100,
  premiumSales: 4,
  premiumRevenue: 1800,
  daily: Array.from({ length: 30 }, (_, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, '0')}`,
    registrations: i,
    revenue: i * 8,
    deposits: 0,
  })),
  domainsPerExtension: [
    { extension: '.inf.nz', domains: 900, premium: 3 },
    { extension: '.biz.ee', domains: 334, premium: 0 },
  ],
}

// Tremor's charts measure their container; jsdom has no ResizeObserver.
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
})

describe('Statistics tab', () => {
  it('shows the KPI cards and domains per extension', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
      http.get('/api/admin/stats', () => HttpResponse.json({ success: true, data: stats })),
    )
    const { events } = renderApp('/admin-dashboard', { user: admin })
    await events.click(await screen.findByRole('tab', { name: 'Statistics' }))
    const kpis = within(await screen.findByRole('region', { name: 'Key figures' }))
    expect(kpis.getByText('Registrations')).toBeInTheDocument()
    expect(kpis.getByText('321')).toBeInTheDocument()
    expect(kpis.getByText('$2,568')).toBeInTheDocument()
    expect(kpis.getByText('$4,100')).toBeInTheDocument()
    expect(kpis.getByText('Active registrars')).toBeInTheDocument()
    expect(kpis.getByText('7')).toBeInTheDocument()
    expect(kpis.getByText('Last 30 days · 1,234 domains in all')).toBeInTheDocument()
    expect(screen.getByText('.inf.nz (3 premium)')).toBeInTheDocument()
    expect(screen.getByText('Registrations per day')).toBeInTheDocument()
  })

  it('says when the statistics cannot be loaded', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
      http.get('/api/admin/stats', () => HttpResponse.json({ success: false, error: 'Admin access required' }, { status: 403 })),
    )
    const { events } = renderApp('/admin-dashboard', { user: admin })
    await events.click(await screen.findByRole('tab', { name: 'Statistics' }))
    expect(await screen.findByText('Could not load statistics')).toBeInTheDocument()
  })
})
