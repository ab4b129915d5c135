import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
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
            {
              id: 7,
              name: 'acme',
              extension: '.biz.ee',
              isPremium: true,
              registeredAt: '2025-03-04T10:00:00Z',
              expiresAt: '2026-03-04T10:00:00Z',
              autoRenew: true,
              price: 50,
            },
            {
              id: 8,
              name: 'blog',
              extension: '.inf.nz',
              isPremium: false,
              registeredAt: '2025-05-01T10:00:00Z',
              expiresAt: '2026-05-01T10:00:00Z',
              autoRenew: false,
              price: 8,
            },
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
