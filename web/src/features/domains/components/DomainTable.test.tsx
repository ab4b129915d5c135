import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Domain } from '@/lib/domains'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'

describe('domain list on the dashboard', () => {
  it('shows the empty state with a way to register', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    renderApp('/dashboard', { user: endUser })
    expect(await screen.findByText('No domains found')).toBeInTheDocument()
    expect(screen.getByText("You haven't registered any domains yet.")).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Register Your First Domain' })).toHaveAttribute('href', '/')
  })

  it('shows the load error with Retry when the request fails', async () => {
    server.use(
      http.get('/api/domains', () => HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })),
    )
    renderApp('/dashboard', { user: endUser })
    expect(await screen.findByText('Failed to load domains. Please try again.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument()
  })

  it('lists domains with type, auto-renew and actions', async () => {
    server.use(
      http.get('/api/domains', () =>
        HttpResponse.json({
          success: true,
          data: [
            serverDomain({
              id: 7,
              name: 'acme',
              extension: '.biz.ee',
              isPremium: true,
              registeredAt: '2025-03-04T10:00:00Z',
              expiresAt: '2026-03-04T10:00:00Z',
              autoRenew: true,
              price: 50,
            }),
            serverDomain({
              id: 8,
              name: 'blog',
              extension: '.inf.nz',
              isPremium: false,
              registeredAt: '2025-05-01T10:00:00Z',
              expiresAt: '2026-05-01T10:00:00Z',
              autoRenew: false,
              price: 8,
            }),
          ],
        }),
      ),
    )
    renderApp('/dashboard', { user: endUser })
    const acme = (await screen.findByRole('cell', { name: 'acme.biz.ee' })).closest('tr')!
    expect(within(acme).getByText('Premium')).toBeInTheDocument()
    expect(within(acme).getByText('Enabled')).toBeInTheDocument()
    expect(within(acme).getByText('Mar 4, 2025')).toBeInTheDocument()
    expect(within(acme).getByRole('link', { name: 'Manage acme.biz.ee' })).toHaveAttribute(
      'href',
      '/domain-management/7',
    )
    const visit = within(acme).getByRole('link', { name: 'Visit acme.biz.ee' })
    expect(visit).toHaveAttribute('href', 'http://acme.biz.ee')
    expect(visit).toHaveAttribute('target', '_blank')
    const blog = screen.getByRole('cell', { name: 'blog.inf.nz' }).closest('tr')!
    expect(within(blog).getByText('Standard')).toBeInTheDocument()
    expect(within(blog).getByText('Disabled')).toBeInTheDocument()
  })
})

function domain(id: number, name: string, fields: Partial<Domain>): Domain {
  return serverDomain({
    id,
    name,
    extension: '.inf.nz',
    isPremium: false,
    registeredAt: '2025-01-01T10:00:00Z',
    expiresAt: '2027-06-01T10:00:00Z',
    autoRenew: true,
    price: 8,
    renewalPrice: 8,
    renewalPeriodDays: 365,
    ...fields,
  })
}

const lifecycleDomains: Domain[] = [
  domain(1, 'alpha', { status: 'active', graceEndsAt: '2027-07-01T10:00:00Z' }),
  domain(2, 'bravo', {
    status: 'expiring_soon',
    expiresAt: '2026-12-04T10:00:00Z',
    graceEndsAt: '2027-01-03T10:00:00Z',
  }),
  domain(3, 'charlie', { status: 'expired', expiresAt: '2026-11-01T10:00:00Z', graceEndsAt: '2026-12-01T10:00:00Z' }),
]

describe('domain statuses on the dashboards', () => {
  // Only Date is faked: "in N days" counts from this moment; timers stay real for msw and user-event.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-22T12:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())

  function rowOf(name: string) {
    return screen.getByRole('cell', { name }).closest('tr')!
  }

  it('badges each status: Active, Expiring soon with the days left, Expired with the end of grace', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: lifecycleDomains })))
    renderApp('/dashboard', { user: endUser })
    await screen.findByRole('cell', { name: 'alpha.inf.nz' })

    const active = within(rowOf('alpha.inf.nz'))
    expect(active.getByText('Active')).toBeInTheDocument()
    expect(active.queryByText(/grace|days/)).not.toBeInTheDocument()

    const expiring = within(rowOf('bravo.inf.nz'))
    expect(expiring.getByText('Expiring soon')).toBeInTheDocument()
    expect(expiring.getByText('in 12 days')).toBeInTheDocument()

    const expired = within(rowOf('charlie.inf.nz'))
    expect(expired.getByText('Expired')).toBeInTheDocument()
    expect(expired.getByText('grace until Dec 1, 2026')).toBeInTheDocument()

    // The phone list carries the same badges.
    const phoneList = within(screen.getByRole('list', { name: 'Domains' }))
    expect(phoneList.getByText('in 12 days')).toBeInTheDocument()
    expect(phoneList.getByText('grace until Dec 1, 2026')).toBeInTheDocument()
  })

  it('lists what needs attention first and sorts by a column header', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: lifecycleDomains })))
    const { events } = renderApp('/dashboard', { user: endUser })
    await screen.findByRole('cell', { name: 'alpha.inf.nz' })
    const table = within(screen.getByRole('table'))
    const names = () =>
      table
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0].textContent)

    expect(names()).toEqual(['charlie.inf.nz', 'bravo.inf.nz', 'alpha.inf.nz'])
    expect(table.getByRole('columnheader', { name: 'Status' })).toHaveAttribute('aria-sort', 'ascending')

    await events.click(table.getByRole('button', { name: 'Domain' }))
    expect(names()).toEqual(['alpha.inf.nz', 'bravo.inf.nz', 'charlie.inf.nz'])
    await events.click(table.getByRole('button', { name: 'Domain' }))
    expect(names()).toEqual(['charlie.inf.nz', 'bravo.inf.nz', 'alpha.inf.nz'])
    expect(table.getByRole('columnheader', { name: 'Domain' })).toHaveAttribute('aria-sort', 'descending')

    await events.click(table.getByRole('button', { name: 'Expires' }))
    expect(names()).toEqual(['charlie.inf.nz', 'bravo.inf.nz', 'alpha.inf.nz'])

    // Phones pick the order from a list.
    await events.selectOptions(screen.getByLabelText('Sort by'), 'Name')
    expect(names()).toEqual(['alpha.inf.nz', 'bravo.inf.nz', 'charlie.inf.nz'])
  })
})
