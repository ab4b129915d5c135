import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { rules, server } from '@/test/server'

const neutral = "If an account exists for that email, we've sent a link to reset your password. It expires in one hour."
const invalidLink = 'This reset link is invalid or has expired. Ask for a new one.'

describe('forgot password', () => {
  it('is linked from the login page', async () => {
    const { events, router } = renderApp('/login', { user: null })
    await events.click(await screen.findByRole('link', { name: 'Forgot password?' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'))
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument()
  })

  it('checks the address before sending it', async () => {
    let calls = 0
    server.use(
      http.post('/api/auth/forgot-password', () => {
        calls++
        return HttpResponse.json({ success: true })
      }),
    )
    const { events } = renderApp('/forgot-password', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText(rules.account.emailMessage)).toBeInTheDocument()
    await events.type(screen.getByLabelText('Email'), 'not-an-email')
    await events.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText(rules.account.emailMessage)).toBeInTheDocument()
    expect(calls).toBe(0)
  })

  it('sends the address and answers neutrally', async () => {
    let sent: unknown
    server.use(
      http.post('/api/auth/forgot-password', async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { events } = renderApp('/forgot-password', { user: null })
    await events.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await events.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText(neutral)).toBeInTheDocument()
    expect(sent).toEqual({ email: 'alice@example.com' })
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login')

    // Another address: back to the form.
    await events.click(screen.getByRole('button', { name: 'try another email address' }))
    expect(await screen.findByLabelText('Email')).toBeInTheDocument()
  })

  it("shows the server's refusal when throttled", async () => {
    server.use(
      http.post('/api/auth/forgot-password', () =>
        HttpResponse.json(
          { success: false, error: 'Too many password reset requests. Please try again in 15 minutes.' },
          { status: 429 },
        ),
      ),
    )
    const { events } = renderApp('/forgot-password', { user: null })
    await events.type(await screen.findByLabelText('Email'), 'alice@example.com')
    await events.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Could not send the reset link')).toBeInTheDocument()
    expect(screen.getByText('Too many password reset requests. Please try again in 15 minutes.')).toBeInTheDocument()
    expect(screen.queryByText(neutral)).not.toBeInTheDocument()
  })
})

describe('reset password', () => {
  it("validates the new password with the server's rules, like sign-up does", async () => {
    const account = rules.account
    const { events } = renderApp('/reset-password?token=abc', { user: null })
    expect(await screen.findByText(`At least ${account.minPasswordLength} characters.`)).toBeInTheDocument()
    await events.type(screen.getByLabelText('New password'), 'p'.repeat(account.minPasswordLength - 1))
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findAllByText(account.passwordTooShortMessage)).not.toHaveLength(0)

    await events.clear(screen.getByLabelText('New password'))
    await events.type(screen.getByLabelText('New password'), 'p'.repeat(account.maxPasswordLength + 1))
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText(account.passwordTooLongMessage)).toBeInTheDocument()

    await events.clear(screen.getByLabelText('New password'))
    await events.type(screen.getByLabelText('New password'), 'n3w-secret')
    await events.type(screen.getByLabelText('Confirm new password'), 'n3w-secrex')
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText(account.passwordsMismatchMessage)).toBeInTheDocument()
  })

  it('sets the password with the token, confirms and goes to the login page', async () => {
    let sent: unknown
    server.use(
      http.post('/api/auth/reset-password', async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { events, router } = renderApp('/reset-password?token=tok_123', { user: null })
    await events.type(await screen.findByLabelText('New password'), 'n3w-secret')
    await events.type(screen.getByLabelText('Confirm new password'), 'n3w-secret')
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    expect(await screen.findByText('Password changed')).toBeInTheDocument()
    expect(sent).toEqual({ token: 'tok_123', newPassword: 'n3w-secret', confirmPassword: 'n3w-secret' })
  })

  it('explains an expired or used link and offers a new one', async () => {
    server.use(
      http.post('/api/auth/reset-password', () =>
        HttpResponse.json({ success: false, error: invalidLink }, { status: 422 }),
      ),
    )
    const { events, router } = renderApp('/reset-password?token=old', { user: null })
    await events.type(await screen.findByLabelText('New password'), 'n3w-secret')
    await events.type(screen.getByLabelText('Confirm new password'), 'n3w-secret')
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText(invalidLink)).toBeInTheDocument()
    await events.click(screen.getByRole('link', { name: 'Ask for a new link' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'))
  })

  it('says at once that a link without a token cannot work', async () => {
    renderApp('/reset-password', { user: null })
    expect(await screen.findByText(invalidLink)).toBeInTheDocument()
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument()
  })

  it('shows other refusals from the server and keeps the form', async () => {
    server.use(
      http.post('/api/auth/reset-password', () =>
        HttpResponse.json({ success: false, error: 'Password must be at most 128 characters' }, { status: 422 }),
      ),
    )
    const { events } = renderApp('/reset-password?token=abc', { user: null })
    await events.type(await screen.findByLabelText('New password'), 'n3w-secret')
    await events.type(screen.getByLabelText('Confirm new password'), 'n3w-secret')
    await events.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByText('Password not changed')).toBeInTheDocument()
    expect(screen.getByText('Password must be at most 128 characters')).toBeInTheDocument()
    expect(screen.getByLabelText('New password')).toBeInTheDocument()
  })
})
