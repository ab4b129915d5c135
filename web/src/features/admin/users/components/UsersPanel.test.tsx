import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server, sessionAs } from '@/test/server'
import type { AdminTierApplication, AdminUser, AuditEntry } from '../api'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

function account(id: number, username: string, extra: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    username,
    email: `${username}@example.com`,
    fullName: username,
    userType: 'user',
    domainCount: 0,
    walletBalance: 0,
    disabled: false,
    disabledAt: null,
    createdAt: '2026-03-04T10:00:00Z',
    ...extra,
  }
}

function serveUsers() {
  const state = {
    users: [
      account(12, 'reseller', { userType: 'registrar', tier: 'basic', domainCount: 3, walletBalance: 42.5 }),
      account(11, 'ursula'),
      account(9, 'root', { userType: 'admin' }),
    ],
    urls: [] as string[],
    patches: [] as { id: string; body: unknown }[],
    audit: [] as AuditEntry[],
    applications: [] as AdminTierApplication[],
    decisions: [] as { id: string; decision: string; body: unknown }[],
    policy: { requireAdmins: false, requireRegistrars: false },
    policyPuts: [] as unknown[],
  }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    sessionAs(() => admin),
    http.get('/api/admin/users', ({ request }) => {
      state.urls.push(request.url)
      const search = new URL(request.url).searchParams.get('search') ?? ''
      const users = state.users.filter((u) => u.username.includes(search))
      return HttpResponse.json({ success: true, data: { users, total: users.length, page: 1, pageSize: 20 } })
    }),
    http.patch('/api/admin/users/:id', async ({ params, request }) => {
      const body = (await request.json()) as { tier?: string; disabled?: boolean }
      state.patches.push({ id: String(params.id), body })
      const u = state.users.find((x) => x.id === Number(params.id))!
      const before = { ...u }
      if (body.tier) u.tier = body.tier as AdminUser['tier']
      if (body.disabled !== undefined) u.disabled = body.disabled
      state.audit.unshift({
        id: state.audit.length + 1,
        actorId: 9,
        actor: 'root',
        action: body.tier ? 'user.tier' : body.disabled ? 'user.disable' : 'user.enable',
        targetType: 'user',
        targetId: String(u.id),
        before: { username: before.username, tier: before.tier, disabled: before.disabled },
        after: { username: u.username, tier: u.tier, disabled: u.disabled },
        createdAt: '2026-03-05T10:00:00Z',
      })
      return HttpResponse.json({ success: true, data: u })
    }),
    http.get('/api/admin/two-factor-policy', () => HttpResponse.json({ success: true, data: state.policy })),
    http.put('/api/admin/two-factor-policy', async ({ request }) => {
      const body = (await request.json()) as typeof state.policy
      state.policyPuts.push(body)
      state.policy = body
      return HttpResponse.json({ success: true, data: body })
    }),
    http.get('/api/admin/audit-log', () => HttpResponse.json({ success: true, data: { entries: state.audit } })),
    http.get('/api/admin/tier-applications', () =>
      HttpResponse.json({ success: true, data: state.applications.filter((a) => a.status === 'pending') }),
    ),
    http.post('/api/admin/tier-applications/:id/:decision', async ({ params, request }) => {
      const body = params.decision === 'decline' ? await request.json() : null
      state.decisions.push({ id: String(params.id), decision: String(params.decision), body })
      const a = state.applications.find((x) => x.id === Number(params.id))!
      a.status = params.decision === 'approve' ? 'approved' : 'declined'
      return HttpResponse.json({ success: true, data: a })
    }),
  )
  return state
}

async function openUsersTab() {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name: 'Users' }))
  const panel = within(await screen.findByRole('tabpanel', { name: 'Users' }))
  await panel.findByRole('listitem', { name: 'reseller' })
  return { ...view, panel }
}

describe('Users tab', () => {
  it('lists accounts with type, tier, domains and balance', async () => {
    serveUsers()
    const { panel } = await openUsersTab()
    const reseller = within(panel.getByRole('listitem', { name: 'reseller' }))
    expect(reseller.getByText('Registrar')).toBeInTheDocument()
    expect(reseller.getByRole('combobox', { name: 'Tier of reseller' })).toHaveValue('basic')
    expect(reseller.getByText('3')).toBeInTheDocument()
    expect(reseller.getByText('$42.50')).toBeInTheDocument()
    expect(panel.getByText(/3 accounts/)).toBeInTheDocument()
    // Admins cannot disable themselves.
    const me = within(panel.getByRole('listitem', { name: 'root' }))
    expect(me.getByRole('button', { name: 'Disable' })).toBeDisabled()
  })

  it('searches accounts', async () => {
    const state = serveUsers()
    const { panel, events } = await openUsersTab()
    await events.type(panel.getByRole('searchbox', { name: 'Search accounts' }), 'urs')
    await waitFor(() => expect(panel.queryByRole('listitem', { name: 'reseller' })).not.toBeInTheDocument())
    expect(panel.getByRole('listitem', { name: 'ursula' })).toBeInTheDocument()
    expect(state.urls.at(-1)).toContain('search=urs')
  })

  it('changes a tier, disables and enables an account, and shows the audit log', async () => {
    const state = serveUsers()
    const { panel, events } = await openUsersTab()
    await events.selectOptions(panel.getByRole('combobox', { name: 'Tier of reseller' }), 'enterprise')
    await waitFor(() => expect(state.patches).toEqual([{ id: '12', body: { tier: 'enterprise' } }]))
    expect(await screen.findByText('Tier changed')).toBeInTheDocument()

    const ursula = within(panel.getByRole('listitem', { name: 'ursula' }))
    await events.click(ursula.getByRole('button', { name: 'Disable' }))
    expect(await screen.findByText('Account disabled')).toBeInTheDocument()
    expect(await ursula.findByText('Disabled')).toBeInTheDocument()
    await events.click(ursula.getByRole('button', { name: 'Enable' }))
    await waitFor(() => expect(state.patches.at(-1)).toEqual({ id: '11', body: { disabled: false } }))

    const log = within(await panel.findByRole('list', { name: 'Audit log' }))
    await waitFor(() => expect(log.getAllByRole('listitem')).toHaveLength(3))
    expect(log.getByText('changed tier')).toBeInTheDocument()
    expect(log.getByText('basic')).toBeInTheDocument()
    expect(log.getByText('enterprise')).toBeInTheDocument()
  })

  it('shows the server message when a change is refused', async () => {
    serveUsers()
    server.use(
      http.patch('/api/admin/users/:id', () =>
        HttpResponse.json({ success: false, error: 'Account not found' }, { status: 404 }),
      ),
    )
    const { panel, events } = await openUsersTab()
    await events.click(within(panel.getByRole('listitem', { name: 'ursula' })).getByRole('button', { name: 'Disable' }))
    expect(await screen.findByText('Account not found')).toBeInTheDocument()
  })
})

describe('Tier applications', () => {
  function application(id: number, username: string, requestedTier: 'premium' | 'enterprise'): AdminTierApplication {
    return {
      id,
      userId: id + 100,
      username,
      email: `${username}@example.com`,
      fullName: username,
      currentTier: 'basic',
      requestedTier,
      status: 'pending',
      createdAt: '2026-03-04T10:00:00Z',
      decidedAt: null,
    }
  }

  it('says when none is waiting', async () => {
    serveUsers()
    const { panel } = await openUsersTab()
    expect(await panel.findByText('No applications are waiting.')).toBeInTheDocument()
  })

  it('approves one and declines another with a reason', async () => {
    const state = serveUsers()
    state.applications.push(application(1, 'bigco', 'enterprise'), application(2, 'midco', 'premium'))
    const { panel, events } = await openUsersTab()
    const big = within(await panel.findByRole('listitem', { name: 'Application of bigco' }))
    expect(big.getByText('Basic')).toBeInTheDocument()
    expect(big.getByText('Enterprise')).toBeInTheDocument()
    await events.click(big.getByRole('button', { name: 'Approve' }))
    expect(await screen.findByText('bigco is now on the Enterprise tier.')).toBeInTheDocument()
    await waitFor(() => expect(panel.queryByRole('listitem', { name: 'Application of bigco' })).not.toBeInTheDocument())

    const mid = within(panel.getByRole('listitem', { name: 'Application of midco' }))
    await events.click(mid.getByRole('button', { name: 'Decline...' }))
    expect(mid.getByRole('button', { name: 'Decline' })).toBeDisabled()
    await events.type(mid.getByRole('textbox', { name: 'Reason for midco' }), 'Tell us about your volumes.')
    await events.click(mid.getByRole('button', { name: 'Decline' }))
    expect(await screen.findByText('midco stays on the Basic tier.')).toBeInTheDocument()
    expect(state.decisions).toEqual([
      { id: '1', decision: 'approve', body: null },
      { id: '2', decision: 'decline', body: { reason: 'Tell us about your volumes.' } },
    ])
    expect(await panel.findByText('No applications are waiting.')).toBeInTheDocument()
  })

  it('requires two-factor sign-in of registrars and, after asking an admin without it, of every admin', async () => {
    const state = serveUsers()
    server.use(
      http.get('/api/account/two-factor', () =>
        HttpResponse.json({
          success: true,
          data: {
            on: false,
            totpEnabled: false,
            recoveryCodesLeft: 0,
            passkeys: 0,
            setupRequired: true,
            setupEnforced: state.policy.requireAdmins,
          },
        }),
      ),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    )
    const { panel, events } = await openUsersTab()
    const registrars = await panel.findByRole('switch', { name: 'Require two-factor sign-in for registrars' })
    const admins = panel.getByRole('switch', { name: 'Require two-factor sign-in for every admin' })
    expect(registrars).toHaveAttribute('aria-checked', 'false')
    await events.click(registrars)
    await waitFor(() => expect(registrars).toHaveAttribute('aria-checked', 'true'))
    expect(await screen.findByText('Two-factor policy saved')).toBeInTheDocument()

    // The admin has no second factor: asked first, then held and sent to set one up.
    await events.click(admins)
    const dialog = within(await screen.findByRole('dialog', { name: 'Require two-factor sign-in of every admin?' }))
    expect(state.policyPuts).toHaveLength(1)
    await events.click(dialog.getByRole('button', { name: 'Require it' }))
    expect(await screen.findByRole('region', { name: 'Two-factor sign-in required' })).toHaveTextContent(
      'Admin tools stay closed until you add a passkey or an authenticator app below.',
    )
    expect(state.policyPuts).toEqual([
      { requireAdmins: false, requireRegistrars: true },
      { requireAdmins: true, requireRegistrars: true },
    ])
  })
})
