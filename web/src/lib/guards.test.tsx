import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, server } from '@/test/server'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

describe('route guards', () => {
  it('sends a visitor from /dashboard to /login', async () => {
    const { router } = renderApp('/dashboard')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('sends an end user from /registrar-dashboard to /dashboard', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    const { router } = renderApp('/registrar-dashboard', { user: endUser })
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })

  it('sends a registrar from /dashboard to /registrar-dashboard', async () => {
    server.use(
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    )
    const { router } = renderApp('/dashboard', { user: registrar })
    await waitFor(() => expect(router.state.location.pathname).toBe('/registrar-dashboard'))
  })

  it('lets only admins into /admin-dashboard, checked with /api/me', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json({ success: true, data: endUser })))
    const { router } = renderApp('/admin-dashboard', { user: endUser })
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
  })

  it('shows the admin dashboard to an admin', async () => {
    server.use(http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })))
    const { events } = renderApp('/admin-dashboard', { user: admin })
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument()
    await events.click(screen.getByRole('tab', { name: 'Users' }))
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByPlaceholderText('Search name or email')).toBeInTheDocument()
  })

  it('sends /domain-management without an id to the dashboard of the user type', async () => {
    server.use(
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    )
    const { router } = renderApp('/domain-management', { user: registrar })
    await waitFor(() => expect(router.state.location.pathname).toBe('/registrar-dashboard'))
  })
})
