import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, rules, server, sessionAs } from '@/test/server'

// The server's account rules and messages (GET /api/rules), not copies.
const account = rules.account

describe('login', () => {
  it("shows the server's messages for a username and password one short of its minimums", async () => {
    let asked = 0
    server.use(
      http.post('/api/auth/login', () => {
        asked++
        return HttpResponse.json({ success: false, error: 'Invalid username or password' }, { status: 401 })
      }),
    )
    const { events } = renderApp('/login', { user: null })
    await events.type(await screen.findByLabelText('Username'), 'u'.repeat(account.minUsernameLength - 1))
    await events.type(screen.getByLabelText('Password'), 'p'.repeat(account.minPasswordLength - 1))
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText(account.usernameTooShortMessage)).toBeInTheDocument()
    expect(screen.getByText(account.passwordTooShortMessage)).toBeInTheDocument()
    expect(asked).toBe(0)

    // The minimums themselves are sent.
    await events.type(screen.getByLabelText('Username'), 'u')
    await events.type(screen.getByLabelText('Password'), 'p')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(asked).toBe(1))
  })

  it("shows 'Login failed' with the server's error", async () => {
    server.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json(
          { success: false, error: 'Too many login attempts. Try again in a minute.' },
          { status: 429 },
        ),
      ),
    )
    const { events } = renderApp('/login', { user: null })
    await events.type(await screen.findByLabelText('Username'), 'alice')
    await events.type(screen.getByLabelText('Password'), 'wrong-password')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText('Login failed')).toBeInTheDocument()
    expect(screen.getByText('Too many login attempts. Try again in a minute.')).toBeInTheDocument()
  })

  it("falls back to 'Invalid username or password' when the server gives no message", async () => {
    server.use(http.post('/api/auth/login', () => new HttpResponse(null, { status: 401 })))
    const { events } = renderApp('/login', { user: null })
    await events.type(await screen.findByLabelText('Username'), 'alice')
    await events.type(screen.getByLabelText('Password'), 'wrong-password')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText('Invalid username or password')).toBeInTheDocument()
  })

  it("reports a network failure as 'An unexpected error occurred'", async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()))
    const { events } = renderApp('/login', { user: null })
    await events.type(await screen.findByLabelText('Username'), 'alice')
    await events.type(screen.getByLabelText('Password'), 'secret-password')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument()
  })

  it('takes a registrar to the registrar dashboard', async () => {
    let loggedIn = false
    server.use(
      http.post('/api/auth/login', () => {
        loggedIn = true
        return HttpResponse.json({ success: true, data: registrar })
      }),
      sessionAs(() => (loggedIn ? registrar : null)),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 42, currency: 'USD' } })),
    )
    const { events, router } = renderApp('/login')
    await events.type(await screen.findByLabelText('Username'), 'regco')
    await events.type(screen.getByLabelText('Password'), 'secret-password')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/registrar-dashboard'))
    expect(await screen.findByText('Login successful')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Registrar Dashboard' })).toBeInTheDocument()
  })
})
