import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, server } from '@/test/server'

async function openSettings() {
  server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
  const view = renderApp('/dashboard', { user: endUser })
  await view.events.click(await screen.findByRole('tab', { name: 'Account Settings' }))
  return view
}

const session = (id: string, browser: string, current: boolean) => ({
  id,
  createdAt: '2026-11-20T09:30:00Z',
  lastSeenAt: '2026-11-26T10:00:00Z',
  ipAddress: current ? '192.0.2.1' : '198.51.100.7',
  browser,
  userAgent: 'Mozilla/5.0',
  current,
})

describe('two-factor sign-in in Account Settings', () => {
  it('sets up an authenticator app with a first code and shows the recovery codes once', async () => {
    let enabled = false
    const confirmed: unknown[] = []
    const codes = [...'abcdefghjk'].map((c) => `${c}bcde-fgh2${c}`)
    server.use(
      http.get('/api/account/two-factor', () =>
        HttpResponse.json({
          success: true,
          data: { on: enabled, totpEnabled: enabled, recoveryCodesLeft: enabled ? 10 : 0, passkeys: 0 },
        }),
      ),
      http.post('/api/account/two-factor/totp', () =>
        HttpResponse.json({
          success: true,
          data: {
            secret: 'JBSWY3DPEHPK3PXP',
            otpauthUrl: 'otpauth://totp/Nameport:alice?secret=JBSWY3DPEHPK3PXP',
            qrCode: 'data:image/png;base64,iVBORw0KGgo=',
          },
        }),
      ),
      http.post('/api/account/two-factor/totp/confirm', async ({ request }) => {
        confirmed.push(await request.json())
        enabled = true
        return HttpResponse.json({ success: true, data: { recoveryCodes: codes } })
      }),
    )
    const { events } = await openSettings()
    await events.click(await screen.findByRole('button', { name: 'Set up authenticator app' }))
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/png;base64,iVBORw0KGgo=',
    )
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument()

    await events.type(screen.getByLabelText('Code from the app'), '12345')
    await events.click(screen.getByRole('button', { name: 'Turn on' }))
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument()
    expect(confirmed).toHaveLength(0)

    await events.type(screen.getByLabelText('Code from the app'), '6')
    await events.click(screen.getByRole('button', { name: 'Turn on' }))
    const list = await screen.findByRole('list', { name: 'Recovery codes' })
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes)
    expect(confirmed).toEqual([{ code: '123456' }])

    await events.click(screen.getByRole('button', { name: 'I have saved them' }))
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument()
    expect(await screen.findByText('On')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeInTheDocument()
  })

  it("turns it off with the password and shows the server's refusal", async () => {
    const sent: unknown[] = []
    server.use(
      http.get('/api/account/two-factor', () =>
        HttpResponse.json({
          success: true,
          data: { on: true, totpEnabled: true, enabledAt: '2026-11-20T09:30:00Z', recoveryCodesLeft: 7, passkeys: 0 },
        }),
      ),
      http.post('/api/account/two-factor/disable', async ({ request }) => {
        sent.push(await request.json())
        return sent.length === 1
          ? HttpResponse.json({ success: false, error: 'Password is incorrect' }, { status: 422 })
          : HttpResponse.json({ success: true })
      }),
    )
    const { events } = await openSettings()
    expect(await screen.findByText('7')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Turn off' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in' }))
    await events.click(dialog.getByRole('button', { name: 'Turn off' }))
    expect(await dialog.findByText('Enter your password')).toBeInTheDocument()
    await events.type(dialog.getByLabelText('Password'), 'wrong')
    await events.click(dialog.getByRole('button', { name: 'Turn off' }))
    expect(await dialog.findByText('Password is incorrect')).toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Use a code instead' }))
    await events.type(dialog.getByLabelText('Authentication or recovery code'), '123456')
    await events.click(dialog.getByRole('button', { name: 'Turn off' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(sent).toEqual([{ password: 'wrong' }, { code: '123456' }])
  })

  it('is on with a passkey alone, and offers an authenticator app besides', async () => {
    server.use(
      http.get('/api/account/two-factor', () =>
        HttpResponse.json({ success: true, data: { on: true, totpEnabled: false, recoveryCodesLeft: 0, passkeys: 1 } }),
      ),
    )
    await openSettings()
    const section = within(await screen.findByRole('region', { name: 'Two-factor sign-in' }))
    expect(await section.findByText('On')).toBeInTheDocument()
    expect(section.getByText(/Sign-in asks for one of your passkeys after your password/)).toBeInTheDocument()
    expect(section.getByRole('button', { name: 'Set up authenticator app' })).toBeInTheDocument()
  })
})

describe('two-factor policy', () => {
  it('asks an account the site requires it of to set it up, and opens Account Settings', async () => {
    server.use(
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/account/two-factor', () =>
        HttpResponse.json({
          success: true,
          data: { on: false, totpEnabled: false, recoveryCodesLeft: 0, passkeys: 0, setupRequired: true },
        }),
      ),
    )
    const { events } = renderApp('/dashboard', { user: { ...endUser, userType: 'admin' } })
    const banner = await screen.findByRole('region', { name: 'Two-factor sign-in required' })
    await events.click(within(banner).getByRole('button', { name: 'Set up now' }))
    expect(screen.getByRole('tab', { name: 'Account Settings' })).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByRole('button', { name: 'Set up authenticator app' })).toBeInTheDocument()
  })
})

describe('two-factor hold', () => {
  it('tells a held registrar its tools are closed and opens Account Settings at once', async () => {
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
            setupEnforced: true,
          },
        }),
      ),
    )
    renderApp('/registrar-dashboard', { user: registrar })
    const banner = await screen.findByRole('region', { name: 'Two-factor sign-in required' })
    expect(
      within(banner).getByText('Registrar tools stay closed until you add a passkey or an authenticator app below.'),
    ).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Set up authenticator app' })).toBeInTheDocument()
  })
})

describe('active sessions in Account Settings', () => {
  it('lists the sessions, signs one out and signs out everywhere else', async () => {
    let sessions = [
      session('a'.repeat(32), 'Chrome 131 on Linux', true),
      session('b'.repeat(32), 'Firefox 133 on Windows', false),
      session('c'.repeat(32), 'Safari 17 on iOS', false),
    ]
    const calls: string[] = []
    server.use(
      http.get('/api/account/sessions', () => HttpResponse.json({ success: true, data: sessions })),
      http.delete('/api/account/sessions/:id', ({ params }) => {
        calls.push(`end ${String(params.id)}`)
        sessions = sessions.filter((s) => s.id !== params.id)
        return HttpResponse.json({ success: true })
      }),
      http.post('/api/account/sessions/end-others', () => {
        calls.push('end others')
        const ended = sessions.length - 1
        sessions = sessions.filter((s) => s.current)
        return HttpResponse.json({ success: true, data: { ended } })
      }),
    )
    const { events } = await openSettings()
    const list = await screen.findByRole('list', { name: 'Active sessions' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3))
    const current = within(list).getByRole('listitem', { name: 'Chrome 131 on Linux' })
    expect(within(current).getByText('This session')).toBeInTheDocument()
    expect(within(current).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument()

    const firefox = within(list).getByRole('listitem', { name: 'Firefox 133 on Windows' })
    expect(within(firefox).getByText('198.51.100.7')).toBeInTheDocument()
    await events.click(within(firefox).getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    expect(calls).toEqual([`end ${'b'.repeat(32)}`])

    await events.click(screen.getByRole('button', { name: 'Sign out everywhere else' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Sign out everywhere else?' }))
    await events.click(dialog.getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(calls).toEqual([`end ${'b'.repeat(32)}`, 'end others'])
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled()
  })
})
