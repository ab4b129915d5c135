import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, searchParamOf, server, sessionAs } from '@/test/server'

/** The server's answers for a login or sign-up that succeeds as `endUser`. */
function acceptAccount() {
  let loggedIn = false
  const answer = () => {
    loggedIn = true
    return HttpResponse.json({ success: true, data: endUser })
  }
  server.use(
    http.post('/api/auth/login', answer),
    http.post('/api/auth/register', answer),
    sessionAs(() => (loggedIn ? endUser : null)),
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/domains/check', () =>
      HttpResponse.json({
        success: true,
        data: { domain: 'shop', extension: '.biz.ee', available: true, isPremium: true, price: 280 },
      }),
    ),
  )
}

async function logIn(events: ReturnType<typeof renderApp>['events']) {
  await events.type(await screen.findByLabelText('Username'), 'alice')
  await events.type(screen.getByLabelText('Password'), 'secret-password')
  await events.click(screen.getByRole('button', { name: 'Log in' }))
}

describe('coming back after logging in or signing up', () => {
  it('returns to the searched name after login and searches it again', async () => {
    acceptAccount()
    const redirect = encodeURIComponent('/?name=shop&extension=.biz.ee')
    const { events, router } = renderApp(`/login?redirect=${redirect}`)
    await logIn(events)
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(router.state.location.search).toEqual({ name: 'shop', extension: '.biz.ee' })
    expect(await screen.findByRole('region', { name: 'Search result' })).toHaveTextContent('shop.biz.ee')
    expect(screen.getByRole('button', { name: 'Register Now' })).toBeInTheDocument()
  })

  it('returns after sign-up, and the links between login and sign-up keep the way back', async () => {
    acceptAccount()
    const redirect = '/premium-domains?q=shop.biz.ee'
    const { events, router } = renderApp(`/register?redirect=${encodeURIComponent(redirect)}`)
    const main = within(await screen.findByRole('main'))
    expect(searchParamOf(await main.findByRole('link', { name: 'Log in' }))).toBe(redirect)
    await events.type(screen.getByLabelText('Full name'), 'Alice Example')
    await events.type(screen.getByLabelText('Username'), 'alice')
    await events.type(screen.getByLabelText('Email'), 'alice@example.com')
    await events.type(screen.getByLabelText('Password'), 'secret-password')
    await events.type(screen.getByLabelText('Confirm password'), 'secret-password')
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/premium-domains'))
    expect(router.state.location.search).toEqual({ q: 'shop.biz.ee' })
  })

  it('sends a visitor from a guarded page to login and back to that page', async () => {
    acceptAccount()
    server.use(http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })))
    const { events, router } = renderApp('/wallet?tab=deposit')
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(router.state.location.search).toEqual({ redirect: '/wallet?tab=deposit' })
    await logIn(events)
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'))
    expect(router.state.location.search).toMatchObject({ tab: 'deposit' })
  })

  for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
    it(`ignores the redirect ${bad} and goes to the dashboard`, async () => {
      acceptAccount()
      const { events, router } = renderApp(`/login?redirect=${encodeURIComponent(bad)}`)
      const main = within(await screen.findByRole('main'))
      expect(searchParamOf(await main.findByRole('link', { name: 'Register' }))).toBeNull()
      await logIn(events)
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    })
  }
})
