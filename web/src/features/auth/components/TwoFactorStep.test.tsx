import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server, sessionAs } from '@/test/server'

/** The server's answer to a right password of an account with two-factor sign-in. */
const twoFactorRequired = () =>
  HttpResponse.json(
    {
      success: false,
      error: 'Enter the code from your authenticator app',
      code: 'two_factor_required',
      pendingToken: 'pending-1',
      methods: ['totp', 'recovery'],
    },
    { status: 401 },
  )

async function passwordStep() {
  const view = renderApp('/login')
  await view.events.type(await screen.findByLabelText('Username'), 'alice')
  await view.events.type(screen.getByLabelText('Password'), 'secret1')
  await view.events.click(screen.getByRole('button', { name: 'Log in' }))
  expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument()
  return view
}

describe('two-factor login step', () => {
  it('asks for the code after the password and finishes the login with it', async () => {
    let signedIn = false
    const sent: unknown[] = []
    server.use(
      http.post('/api/auth/login', twoFactorRequired),
      http.post('/api/auth/login/two-factor', async ({ request }) => {
        sent.push(await request.json())
        signedIn = true
        return HttpResponse.json({ success: true, data: endUser })
      }),
      sessionAs(() => (signedIn ? endUser : null)),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    )
    const { events, router } = await passwordStep()

    // A code of the wrong shape is not sent.
    await events.type(screen.getByLabelText('Authentication code'), '12a45')
    await events.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument()
    expect(sent).toHaveLength(0)

    await events.clear(screen.getByLabelText('Authentication code'))
    await events.type(screen.getByLabelText('Authentication code'), '123456')
    await events.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(sent).toEqual([{ pendingToken: 'pending-1', method: 'totp', code: '123456' }])
  })

  it('takes a recovery code instead, and shows a refused one', async () => {
    const sent: unknown[] = []
    server.use(
      http.post('/api/auth/login', twoFactorRequired),
      http.post('/api/auth/login/two-factor', async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ success: false, error: 'Invalid or used recovery code' }, { status: 401 })
      }),
    )
    const { events } = await passwordStep()
    await events.click(screen.getByRole('button', { name: 'Use a recovery code instead' }))
    await events.type(screen.getByLabelText('Recovery code'), 'abcde-23fgh')
    await events.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Invalid or used recovery code')).toBeInTheDocument()
    expect(sent).toEqual([{ pendingToken: 'pending-1', method: 'recovery', code: 'abcde-23fgh' }])
    expect(screen.getByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument()
  })

  it('goes back to the password when the sign-in has expired', async () => {
    server.use(
      http.post('/api/auth/login', twoFactorRequired),
      http.post('/api/auth/login/two-factor', () =>
        HttpResponse.json({ success: false, error: 'This sign-in has expired. Please log in again.' }, { status: 401 }),
      ),
    )
    const { events } = await passwordStep()
    await events.type(screen.getByLabelText('Authentication code'), '123456')
    await events.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument()
    expect(screen.getByText('This sign-in has expired. Please log in again.')).toBeInTheDocument()
  })
})
