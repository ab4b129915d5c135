import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, rules, server, sessionAs } from '@/test/server'

// The server's account rules and messages (GET /api/rules), not copies.
const account = rules.account

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

  it("says the server's mismatch message on the confirmation", async () => {
    const { events } = renderApp('/register', { user: null })
    await fillAccount(events, ['secret-one', 'secret-two'])
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    const confirm = screen.getByLabelText('Confirm password')
    expect(await screen.findByText(account.passwordsMismatchMessage)).toBeInTheDocument()
    expect(confirm).toHaveAttribute('aria-invalid', 'true')
  })

  it("shows the server's messages for empty fields", async () => {
    const { events } = renderApp('/register', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText(account.fullNameRequiredMessage)).toBeInTheDocument()
    expect(screen.getByText(account.usernameTooShortMessage)).toBeInTheDocument()
    expect(screen.getByText(account.emailMessage)).toBeInTheDocument()
    expect(screen.getAllByText(account.passwordTooShortMessage)).toHaveLength(2)
  })

  it("refuses each field one past the server's bounds, with the server's message", async () => {
    let asked = 0
    server.use(
      http.post('/api/auth/register', () => {
        asked++
        return HttpResponse.json({ success: false, error: 'not expected' }, { status: 500 })
      }),
    )
    const { events } = renderApp('/register', { user: null })
    const type = async (label: string, value: string) => {
      await events.clear(screen.getByLabelText(label))
      await events.type(screen.getByLabelText(label), value)
    }
    await screen.findByLabelText('Full name')
    // Surrounding spaces do not count, as on the server.
    await type('Full name', ` ${'f'.repeat(account.minFullNameLength - 1)} `)
    await type('Username', ` ${'u'.repeat(account.minUsernameLength - 1)} `)
    await type('Email', 'ops@regco.example')
    await type('Password', 'p'.repeat(account.minPasswordLength - 1))
    await type('Confirm password', 'p'.repeat(account.minPasswordLength - 1))
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText(account.fullNameRequiredMessage)).toBeInTheDocument()
    expect(screen.getByText(account.usernameTooShortMessage)).toBeInTheDocument()
    expect(screen.getAllByText(account.passwordTooShortMessage)).toHaveLength(2)

    await type('Full name', 'f'.repeat(account.maxFullNameLength + 1))
    await type('Username', 'u'.repeat(account.maxUsernameLength + 1))
    await type('Password', 'p'.repeat(account.maxPasswordLength + 1))
    await type('Confirm password', 'p'.repeat(account.maxPasswordLength + 1))
    expect(await screen.findByText(account.fullNameTooLongMessage)).toBeInTheDocument()
    expect(screen.getByText(account.usernameTooLongMessage)).toBeInTheDocument()
    expect(screen.getByText(account.passwordTooLongMessage)).toBeInTheDocument()

    // A username of a fitting length with a character the server refuses.
    await type('Username', `a b${'c'.repeat(account.minUsernameLength)}`.slice(0, account.maxUsernameLength))
    expect(await screen.findByText(account.usernameCharactersMessage)).toBeInTheDocument()
    expect(asked).toBe(0)
  })

  it("sends fields at the server's bounds", async () => {
    const sent: Record<string, unknown>[] = []
    server.use(
      http.post('/api/auth/register', async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>)
        return HttpResponse.json({ success: false, error: 'Username is already taken' }, { status: 409 })
      }),
    )
    const { events } = renderApp('/register', { user: null })
    const type = async (label: string, value: string) => {
      await events.clear(screen.getByLabelText(label))
      await events.type(screen.getByLabelText(label), value)
    }
    const submit = async (fields: { fullName: string; username: string; password: string }) => {
      await type('Full name', fields.fullName)
      await type('Username', fields.username)
      await type('Email', 'ops@regco.example')
      await type('Password', fields.password)
      await type('Confirm password', fields.password)
      await events.click(screen.getByRole('button', { name: 'Create Account' }))
    }
    await screen.findByLabelText('Full name')
    await submit({
      fullName: 'f'.repeat(account.minFullNameLength),
      username: 'u'.repeat(account.minUsernameLength),
      password: 'p'.repeat(account.minPasswordLength),
    })
    await waitFor(() => expect(sent).toHaveLength(1))
    await submit({
      fullName: 'F'.repeat(account.maxFullNameLength),
      username: `Reg.co-${'x'.repeat(account.maxUsernameLength - 7)}`,
      password: 'P'.repeat(account.maxPasswordLength),
    })
    await waitFor(() => expect(sent).toHaveLength(2))
    expect(sent[1]).toMatchObject({
      fullName: 'F'.repeat(account.maxFullNameLength),
      password: 'P'.repeat(account.maxPasswordLength),
    })
  })

  it('checks with whatever rules the server publishes', async () => {
    server.use(
      http.get('/api/rules', () =>
        HttpResponse.json({
          success: true,
          data: {
            ...rules,
            account: { ...account, minUsernameLength: 5, usernameTooShortMessage: 'Five characters at least' },
          },
        }),
      ),
    )
    const { events } = renderApp('/register', { user: null })
    await fillAccount(events, ['secret-pass', 'secret-pass']) // the username is regco: 5
    await events.clear(screen.getByLabelText('Username'))
    await events.type(screen.getByLabelText('Username'), 'regc')
    await events.click(screen.getByRole('button', { name: 'Create Account' }))
    expect(await screen.findByText('Five characters at least')).toBeInTheDocument()
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
      sessionAs(() => (registered ? registrar : null)),
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
