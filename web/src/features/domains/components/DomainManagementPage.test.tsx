import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, server } from '@/test/server'

const shop = serverDomain({
  id: 5,
  name: 'shop',
  extension: '.biz.ee',
  isPremium: true,
  registeredAt: '2026-01-10T12:00:00Z',
  expiresAt: '2028-01-10T12:00:00Z',
  autoRenew: true,
  price: 280,
})

describe('/domain-management/$id', () => {
  it('shows the title, dates, tabs and the DNS records first', async () => {
    server.use(
      http.get('/api/domains/5', () => HttpResponse.json({ success: true, data: shop })),
      http.get('/api/domains/5/dns', () => HttpResponse.json({ success: true, data: [] })),
    )
    renderApp('/domain-management/5', { user: registrar })
    expect(await screen.findByRole('heading', { name: 'shop.biz.ee', level: 1 })).toBeInTheDocument()
    expect(screen.getByText('Premium')).toBeInTheDocument()
    expect(screen.getByText('Jan 10, 2026')).toBeInTheDocument()
    expect(screen.getByText('Jan 10, 2028')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/registrar-dashboard')
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'DNS Management',
      'Email Forwarding',
      'Domain Forwarding',
      'Domain Settings',
    ])
    const dns = within(screen.getByRole('tabpanel', { name: 'DNS Management' }))
    expect(await dns.findByText('No DNS records found')).toBeInTheDocument()
  })

  it('shows the settings: auto-renewal, transfer lock and domain info', async () => {
    server.use(http.get('/api/domains/5', () => HttpResponse.json({ success: true, data: shop })))
    renderApp('/domain-management/5?tab=settings', { user: endUser })
    const panel = within(await screen.findByRole('tabpanel', { name: 'Domain Settings' }))
    expect(panel.getByText('Enabled')).toBeInTheDocument()
    expect(panel.getByRole('button', { name: 'Disable auto-renewal' })).toHaveTextContent('Disable')
    expect(panel.getByText(/Transfer lock is enabled/)).toBeInTheDocument()
    const info = (label: string) => panel.getByText(label).closest('div')!
    expect(info('Registration date')).toHaveTextContent('Jan 10, 2026')
    expect(info('Expiration date')).toHaveTextContent('Jan 10, 2028')
    expect(info('Type')).toHaveTextContent('Premium')
    expect(info('Yearly price')).toHaveTextContent('$280.00')
  })

  it('turns auto-renewal off and on with PATCH, says so, and refreshes the domain and the list', async () => {
    let current = shop
    const bodies: unknown[] = []
    server.use(
      http.get('/api/domains/5', () => HttpResponse.json({ success: true, data: current })),
      http.patch('/api/domains/5', async ({ request }) => {
        const body = (await request.json()) as { autoRenew: boolean }
        bodies.push(body)
        current = { ...current, autoRenew: body.autoRenew }
        return HttpResponse.json({ success: true, data: current })
      }),
    )
    const { events, queryClient } = renderApp('/domain-management/5?tab=settings', { user: endUser })
    queryClient.setQueryData(['/api/domains'], [shop])
    const panel = within(await screen.findByRole('tabpanel', { name: 'Domain Settings' }))

    await events.click(panel.getByRole('button', { name: 'Disable auto-renewal' }))
    expect(await screen.findByText('Auto-renewal disabled')).toBeInTheDocument()
    expect(await panel.findByText('Disabled')).toBeInTheDocument()
    expect(queryClient.getQueryState(['/api/domains'])?.isInvalidated).toBe(true)

    await events.click(panel.getByRole('button', { name: 'Enable auto-renewal' }))
    expect(await screen.findByText('Auto-renewal enabled')).toBeInTheDocument()
    await waitFor(() => expect(panel.getByText('Enabled')).toBeInTheDocument())
    expect(bodies).toEqual([{ autoRenew: false }, { autoRenew: true }])
  })

  it('reports a failed change', async () => {
    server.use(
      http.get('/api/domains/5', () => HttpResponse.json({ success: true, data: shop })),
      http.patch('/api/domains/5', () => HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })),
    )
    const { events } = renderApp('/domain-management/5?tab=settings', { user: endUser })
    const panel = within(await screen.findByRole('tabpanel', { name: 'Domain Settings' }))
    await events.click(panel.getByRole('button', { name: 'Disable auto-renewal' }))
    expect(await screen.findByText('Not found')).toBeInTheDocument()
    expect(panel.getByText('Enabled')).toBeInTheDocument()
  })

  it("toasts 'Could not load domain information' and goes to the dashboard for an unknown id", async () => {
    server.use(
      http.get('/api/domains/99', () => HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    )
    const { router } = renderApp('/domain-management/99', { user: endUser })
    expect(await screen.findByText('Could not load domain information')).toBeInTheDocument()
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })
})
