import { screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Domain } from '@/lib/domains'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, rules, server } from '@/test/server'

const domains: Domain[] = [
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
].map(serverDomain)

function serveRegistrarData({ domainsDelay = 0 } = {}) {
  server.use(
    http.get('/api/domains', async () => {
      await delay(domainsDelay)
      return HttpResponse.json({ success: true, data: domains })
    }),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 42, currency: 'USD' } })),
  )
}

function metric(label: string) {
  return screen.getByText(label).parentElement!
}

describe('registrar tier', () => {
  it('shows a pending application, and no way to apply again meanwhile', async () => {
    serveRegistrarData()
    server.use(
      http.get('/api/registrar/tier-application', () =>
        HttpResponse.json({
          success: true,
          data: {
            tier: 'basic',
            application: {
              id: 3,
              requestedTier: 'enterprise',
              status: 'pending',
              createdAt: '2026-03-04T10:00:00Z',
              decidedAt: null,
            },
          },
        }),
      ),
    )
    renderApp('/registrar-dashboard', { user: { ...registrar, tier: 'basic' } })
    expect(await screen.findByText('Partnership tier: Basic')).toBeInTheDocument()
    expect(screen.getByText('Application pending')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your application for the Enterprise tier is pending review. You keep Basic prices until our team approves it',
    )
    expect(screen.queryByRole('button', { name: 'Apply' })).not.toBeInTheDocument()
  })

  it('applies for a higher tier after a decline', async () => {
    serveRegistrarData()
    let sent: unknown
    let mine = {
      tier: 'premium',
      application: {
        id: 3,
        requestedTier: 'enterprise',
        status: 'declined',
        reason: 'Tell us about your volumes.',
        createdAt: '2026-03-04T10:00:00Z',
        decidedAt: '2026-03-05T10:00:00Z',
      },
    }
    server.use(
      http.get('/api/registrar/tier-application', () => HttpResponse.json({ success: true, data: mine })),
      http.post('/api/registrar/tier-application', async ({ request }) => {
        sent = await request.json()
        mine = { tier: 'premium', application: { ...mine.application, id: 4, status: 'pending', reason: '' } }
        return HttpResponse.json({ success: true, data: mine.application }, { status: 201 })
      }),
    )
    const { events } = renderApp('/registrar-dashboard', { user: registrar })
    expect(
      await screen.findByText('Your application for the Enterprise tier was declined: Tell us about your volumes.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Apply for a higher tier' })).toHaveValue('enterprise')
    // The card settles (its month's usage loaded) before the click.
    expect(await screen.findByText(/37 of 500 this month/)).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Apply' }))
    expect(await screen.findByText('Application sent')).toBeInTheDocument()
    expect(sent).toEqual({ tier: 'enterprise' })
    expect(await screen.findByText('Application pending')).toBeInTheDocument()
  })
})

describe('registrar dashboard cards', () => {
  it("shows '--' for Total Domains while the list loads, then the real count", async () => {
    serveRegistrarData({ domainsDelay: 150 })
    renderApp('/registrar-dashboard', { user: registrar })
    await screen.findByRole('heading', { name: 'Registrar Dashboard' })
    expect(metric('Total Domains')).toHaveTextContent('Total Domains--')
    await waitFor(() => expect(metric('Total Domains')).toHaveTextContent('Total Domains2'))
    await waitFor(() => expect(metric('Wallet Balance')).toHaveTextContent('$42.00'))
    expect(metric('API Status')).toHaveTextContent('Activenp_live_...')
    expect(screen.getByRole('link', { name: /^Wallet/ })).toHaveTextContent('Wallet$42.00')
  })

  it('has header buttons, tabs and the full domain table', async () => {
    serveRegistrarData()
    renderApp('/registrar-dashboard', { user: registrar })
    expect(await screen.findByRole('link', { name: /^Wallet/ })).toHaveAttribute('href', '/wallet')
    expect(screen.getByRole('button', { name: 'Register Domain' })).toBeInTheDocument()
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Domains',
      'Bulk Operations',
      'Reports',
      'API Access',
      'Request Logs',
      'Webhooks',
      'Account Settings',
    ])
    const table = within(await screen.findByRole('table'))
    expect(table.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Domain',
      'Status',
      'Type',
      'Registered',
      'Expires',
      'Auto-Renew',
      'Actions',
    ])
    expect(table.getAllByRole('row')).toHaveLength(3)
  })
})

describe('end-user dashboard', () => {
  it('has Wallet without a badge, Register Domain, and two tabs', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: domains })))
    renderApp('/dashboard', { user: endUser })
    expect(await screen.findByRole('link', { name: 'Wallet' })).toHaveAttribute('href', '/wallet')
    expect(screen.getByRole('button', { name: 'Register Domain' })).toBeInTheDocument()
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['My Domains', 'Account Settings'])
    expect(await screen.findByRole('cell', { name: 'acme.biz.ee' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Admin area' })).not.toBeInTheDocument()
  })

  it('shows an admin the way into the admin area', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    renderApp('/dashboard', { user: { ...endUser, userType: 'admin' } })
    const card = within(await screen.findByRole('region', { name: 'Admin area' }))
    expect(card.getByRole('link', { name: 'Open admin dashboard' })).toHaveAttribute('href', '/admin-dashboard')
  })
})

describe('change password', () => {
  async function openDialog() {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    const view = renderApp('/dashboard', { user: endUser })
    await view.events.click(await screen.findByRole('tab', { name: 'Account Settings' }))
    expect(screen.getByLabelText('Username')).toHaveValue('alice')
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly')
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com')
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly')
    await view.events.click(screen.getByRole('button', { name: 'Change Password' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Change password' }))
    const fill = async (current: string, next: string, confirm: string) => {
      for (const [label, value] of [
        ['Current password', current],
        ['New password', next],
        ['Confirm new password', confirm],
      ]) {
        await view.events.clear(dialog.getByLabelText(label))
        if (value) await view.events.type(dialog.getByLabelText(label), value)
      }
    }
    return { ...view, dialog, fill }
  }

  it('checks lengths and the match before sending anything', async () => {
    let asked = 0
    server.use(
      http.post('/api/auth/change-password', () => {
        asked++
        return HttpResponse.json({ success: true })
      }),
    )
    const { dialog, events, fill } = await openDialog()
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await dialog.findAllByText(rules.account.passwordTooShortMessage)).toHaveLength(3)
    await fill('old-secret', 'p'.repeat(rules.account.maxPasswordLength + 1), 'new-secrex')
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await dialog.findByText(rules.account.passwordTooLongMessage)).toBeInTheDocument()
    await fill('old-secret', 'new-secret', 'new-secrex')
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await dialog.findByText(rules.account.passwordsMismatchMessage)).toBeInTheDocument()
    expect(dialog.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true')
    expect(asked).toBe(0)
  })

  it('changes the password, says the other sessions were logged out, and closes', async () => {
    let body: unknown
    server.use(
      http.post('/api/auth/change-password', async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { dialog, events, fill } = await openDialog()
    await fill('old-secret', 'new-secret', 'new-secret')
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await screen.findByText('Password changed')).toBeInTheDocument()
    expect(screen.getByText('Your other sessions have been logged out.')).toBeInTheDocument()
    expect(body).toEqual({ currentPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secret' })
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it("shows 'Password change failed' with the server's error and keeps the dialog", async () => {
    server.use(
      http.post('/api/auth/change-password', () =>
        HttpResponse.json({ success: false, error: 'Current password is incorrect' }, { status: 422 }),
      ),
    )
    const { dialog, events, fill } = await openDialog()
    await fill('wrong-secret', 'new-secret', 'new-secret')
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await screen.findByText('Password change failed')).toBeInTheDocument()
    expect(screen.getByText('Current password is incorrect')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Change password' })).toBeInTheDocument()
  })

  it("falls back to 'An unexpected error occurred' when the request fails", async () => {
    server.use(http.post('/api/auth/change-password', () => HttpResponse.error()))
    const { dialog, events, fill } = await openDialog()
    await fill('old-secret', 'new-secret', 'new-secret')
    await events.click(dialog.getByRole('button', { name: 'Change Password' }))
    expect(await screen.findByText('Password change failed')).toBeInTheDocument()
    expect(screen.getByText('An unexpected error occurred')).toBeInTheDocument()
  })
})
