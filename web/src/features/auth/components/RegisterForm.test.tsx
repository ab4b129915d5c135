import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'

async function fillAccount(events: ReturnType<typeof renderApp>['events'], passwords: [string, string]) {
  await events.type(await screen.findByLabelText('Full name'), 'Reg Co')
  await events.type(screen.getByLabelText('Username'), 'regco')
  await events.type(screen.getByLabelText('Email'), 'ops@regco.example')
  await events.type(screen.getByLabelText('Password'), passwords[0])
  await events.type(screen.getByLabelText('Confirm password'), passwords[1])
}

describe('register', () => {
  it('starts as an end user without a type in the query', async () => {
    renderApp('/register', { user: null })
    expect(await screen.findByRole('radio', { name: /End User/ })).toBeChecked()
    expect(screen.queryByLabelText('Partnership tier')).not.toBeInTheDocument()
  })

  it('pre-selects Registrar Partner and the tier from the query', async () => {
    renderApp('/register?type=registrar&tier=premium', { user: null })
    expect(await screen.findByRole('radio', { name: /Registrar Partner/ })).toBeChecked()
    expect(await screen.findByLabelText('Partnership tier')).toHaveValue('premium')
  })

  it("says 'Passwords do not match' on the confirmation", async () => {
    const { events } = renderApp('/register', { user: null })
    await fillAccount(events, ['secret-one', 'secret-two'])
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    const confirm = screen.getByLabelText('Confirm password')
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument()
    expect(confirm).toHaveAttribute('aria-invalid', 'true')
  })

  it('shows the spec messages for empty fields', async () => {
    const { events } = renderApp('/register', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Full name is required')).toBeInTheDocument()
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument()
    expect(screen.getByText('Invalid email address')).toBeInTheDocument()
    expect(screen.getAllByText('Password must be at least 6 characters')).toHaveLength(2)
  })

  it('sends the registrar tier and lands on the registrar dashboard', async () => {
    let body: unknown
    let registered = false
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        body = await request.json()
        registered = true
        return HttpResponse.json({ success: true, data: registrar }, { status: 201 })
      }),
      http.get('/api/auth/me', () =>
        registered
          ? HttpResponse.json({ success: true, data: registrar })
          : HttpResponse.json({ success: false, error: 'Not authenticated' }, { status: 401 }),
      ),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    )
    const { events, router } = renderApp('/register?type=registrar&tier=enterprise')
    await fillAccount(events, ['secret-pass', 'secret-pass'])
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/registrar-dashboard'))
    expect(body).toEqual({
      fullName: 'Reg Co',
      username: 'regco',
      email: 'ops@regco.example',
      password: 'secret-pass',
      confirmPassword: 'secret-pass',
      userType: 'registrar',
      tier: 'enterprise',
    })
    expect(await screen.findByText('Registration successful')).toBeInTheDocument()
    expect(
      screen.getByText('Your account has been created! Your Enterprise tier application is pending review.'),
    ).toBeInTheDocument()
  })

  it('says a tier above basic is applied for and stays pending until approved', async () => {
    const { events } = renderApp('/register?type=registrar&tier=premium', { user: null })
    const note = await screen.findByRole('note')
    expect(note).toHaveTextContent(
      'The Premium tier is granted after review: your account starts on the Basic tier and your application stays pending until our team approves it.',
    )
    await events.selectOptions(screen.getByLabelText('Partnership tier'), 'basic')
    expect(screen.queryByRole('note')).not.toBeInTheDocument()
  })

  it("shows 'Registration failed' with the server's error", async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json({ success: false, error: 'Username is already taken' }, { status: 409 }),
      ),
    )
    const { events } = renderApp('/register', { user: null })
    await fillAccount(events, ['secret-pass', 'secret-pass'])
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Registration failed')).toBeInTheDocument()
    expect(screen.getByText('Username is already taken')).toBeInTheDocument()
  })
})
