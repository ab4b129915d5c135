import { StrictMode } from 'react'
import { render, screen } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { HelpProvider } from '@/components/help/HelpProvider'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/queryClient'
import { createAppRouter } from '@/router'
import { renderApp } from '@/test/renderApp'
import { server } from '@/test/server'

const CONFIRM = '/api/email-forwarding/confirm'
const invalidLink = 'This confirmation link is invalid or has already been used'

/** Answers the confirmation like the server: the one known token once, then the refusal. */
function serveConfirm(known = 'tok_123') {
  const sent: unknown[] = []
  let used = false
  server.use(
    http.post(CONFIRM, async ({ request }) => {
      const body = (await request.json()) as { token: string }
      sent.push(body)
      if (body.token !== known || used) {
        return HttpResponse.json({ success: false, code: 'invalid', error: invalidLink }, { status: 422 })
      }
      used = true
      return HttpResponse.json({ success: true, data: { address: 'bob@example.net' } })
    }),
  )
  return sent
}

describe('/email-forwarding/confirm', () => {
  it('confirms with the token of the link as it opens, once, without a session', async () => {
    const sent = serveConfirm()
    renderApp('/email-forwarding/confirm?token=tok_123', { user: null })
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(sent).toEqual([{ token: 'tok_123' }])
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })

  it('sends the token once where React runs effects twice (StrictMode, as main.tsx renders the app)', async () => {
    const sent = serveConfirm()
    const queryClient = createQueryClient()
    const path = '/email-forwarding/confirm?token=tok_123'
    const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }))
    render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <HelpProvider initialPath={path}>
            <RouterProvider router={router} />
          </HelpProvider>
        </QueryClientProvider>
      </StrictMode>,
    )
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(sent).toEqual([{ token: 'tok_123' }])
  })

  it("shows the server's answer to a used or unknown link", async () => {
    const sent = serveConfirm()
    renderApp('/email-forwarding/confirm?token=old', { user: null })
    expect(await screen.findByRole('alert')).toHaveTextContent(invalidLink)
    expect(sent).toEqual([{ token: 'old' }])
    expect(screen.queryByText(/is confirmed/)).not.toBeInTheDocument()
  })

  it('asks the server about a link without a token too', async () => {
    const sent = serveConfirm()
    renderApp('/email-forwarding/confirm', { user: null })
    expect(await screen.findByRole('alert')).toHaveTextContent(invalidLink)
    expect(sent).toEqual([{ token: '' }])
  })

  it('offers to try again after an unexpected failure', async () => {
    let calls = 0
    server.use(
      http.post(CONFIRM, () => {
        calls++
        return calls === 1
          ? HttpResponse.json({ success: false }, { status: 502 })
          : HttpResponse.json({ success: true, data: { address: 'bob@example.net' } })
      }),
    )
    const { events } = renderApp('/email-forwarding/confirm?token=tok_123', { user: null })
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred. Please try again.')
    await events.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(calls).toBe(2)
  })
})
