import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'

describe('/verify-email', () => {
  it('verifies with the token of the link when asked, not on opening', async () => {
    const sent: unknown[] = []
    server.use(
      http.post('/api/auth/verify-email', async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json({ success: true })
      }),
    )
    const { events } = renderApp('/verify-email?token=tok_123', { user: null })
    const button = await screen.findByRole('button', { name: 'Verify my email address' })
    expect(sent).toEqual([])
    await events.click(button)
    expect(await screen.findByRole('status')).toHaveTextContent('You can now register names and add funds')
    expect(sent).toEqual([{ token: 'tok_123' }])
  })

  it('says when the link cannot be used', async () => {
    server.use(
      http.post('/api/auth/verify-email', () =>
        HttpResponse.json(
          { success: false, error: 'This verification link is invalid or has expired. Ask for a new one.' },
          { status: 422 },
        ),
      ),
    )
    const { events } = renderApp('/verify-email?token=old', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Verify my email address' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This verification link is invalid or has expired. Ask for a new one.',
    )
  })

  it('explains a link without a token', async () => {
    renderApp('/verify-email', { user: null })
    expect(await screen.findByText('This link can no longer be used.')).toBeInTheDocument()
  })
})

describe('email verification banner', () => {
  it('asks an unverified account to verify, and resends the link', async () => {
    let resent = 0
    server.use(
      http.get('/api/auth/email-verification', () =>
        HttpResponse.json({ success: true, data: { email: 'alice@example.com', verified: false } }),
      ),
      http.post('/api/auth/email-verification/resend', () => {
        resent++
        return resent > 1
          ? HttpResponse.json(
              { success: false, error: 'Too many verification emails. Please try again in 15 minutes.' },
              { status: 429 },
            )
          : HttpResponse.json({ success: true })
      }),
      http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    )
    const { events } = renderApp('/dashboard', { user: endUser })
    const banner = await screen.findByRole('region', { name: 'Email verification' })
    expect(banner).toHaveTextContent(
      'Verify your email address to register names and add funds. We sent a link to alice@example.com.',
    )
    await events.click(screen.getByRole('button', { name: 'Resend email' }))
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Resend email' }))
    expect(await screen.findByText('Too many verification emails. Please try again in 15 minutes.')).toBeInTheDocument()
  })

  it('shows nothing once the address is verified', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    renderApp('/dashboard', { user: endUser })
    await screen.findByRole('heading', { name: 'Dashboard' })
    expect(screen.queryByRole('region', { name: 'Email verification' })).not.toBeInTheDocument()
  })
})
