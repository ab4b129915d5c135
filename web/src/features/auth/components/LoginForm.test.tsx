import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'

describe('login', () => {
  it('shows the spec messages for a short username and password', async () => {
    const { events } = renderApp('/login', { user: null })
    await events.type(await screen.findByLabelText('Username'), 'ab')
    await events.type(screen.getByLabelText('Password'), '12345')
    await events.click(screen.getByRole('button', { name: 'Log in' }))
    expect(await screen.findByText('Username must be at least 3 characters')).toBeInTheDocument()
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument()
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
      http.get('/api/auth/me', () =>
        loggedIn
          ? HttpResponse.json({ success: true, data: registrar })
          : HttpResponse.json({ success: false, error: 'Not authenticated' }, { status: 401 }),
      ),
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
