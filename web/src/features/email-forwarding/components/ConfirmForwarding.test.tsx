import { StrictMode } from 'react'
import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { HelpProvider } from '@/components/help/HelpProvider'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
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

/**
 * Counts the confirmation requests the page makes, at the moment it makes
 * them (fetch is called before the server's handler reads the body).
 */
function countConfirmRequests() {
  const fetchSpy = vi.spyOn(globalThis, 'fetch')
  onTestFinished(() => fetchSpy.mockRestore())
  return () =>
    fetchSpy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).endsWith(CONFIRM))
      .length
}

describe('/email-forwarding/confirm', () => {
  it('sends nothing as it opens; the button confirms with the token of the link, once, without a session', async () => {
    const sent = serveConfirm()
    const requests = countConfirmRequests()
    const { events } = renderApp('/email-forwarding/confirm?token=tok_123', { user: null })
    const button = await screen.findByRole('button', { name: 'Confirm forwarding' })
    expect(screen.getByText(/Nothing is forwarded to this address until you confirm/)).toBeInTheDocument()
    // What a mail scanner that opens the link (and runs its JavaScript) gets: a page, and no confirmation.
    expect(requests()).toBe(0)

    await events.click(button)
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(sent).toEqual([{ token: 'tok_123' }])
    expect(requests()).toBe(1)
    expect(screen.queryByRole('button', { name: 'Confirm forwarding' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })

  it('sends nothing as it opens where React runs effects twice (StrictMode, as main.tsx renders the app)', async () => {
    const sent = serveConfirm()
    const requests = countConfirmRequests()
    const queryClient = createQueryClient()
    const path = '/email-forwarding/confirm?token=tok_123'
    const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }))
    const events = userEvent.setup()
    render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <HelpProvider initialPath={path}>
            <RouterProvider router={router} />
          </HelpProvider>
        </QueryClientProvider>
      </StrictMode>,
    )
    const button = await screen.findByRole('button', { name: 'Confirm forwarding' })
    expect(requests()).toBe(0)
    await events.click(button)
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(sent).toEqual([{ token: 'tok_123' }])
  })

  it('sends the token once for two clicks that come before the page re-renders', async () => {
    const sent = serveConfirm()
    const requests = countConfirmRequests()
    renderApp('/email-forwarding/confirm?token=tok_123', { user: null })
    const button = await screen.findByRole('button', { name: 'Confirm forwarding' })
    // In one go, as a quick double click can land: the button is not disabled yet at the second.
    fireEvent.click(button)
    fireEvent.click(button)
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(requests()).toBe(1)
    expect(sent).toEqual([{ token: 'tok_123' }])
  })

  it("shows the server's answer to a used or unknown link", async () => {
    const sent = serveConfirm()
    const { events } = renderApp('/email-forwarding/confirm?token=old', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Confirm forwarding' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(invalidLink)
    expect(sent).toEqual([{ token: 'old' }])
    expect(screen.queryByText(/is confirmed/)).not.toBeInTheDocument()
    // The link cannot be used: nothing is offered to try again.
    expect(screen.queryByRole('button', { name: 'Confirm forwarding' })).not.toBeInTheDocument()
  })

  it('says a link without a token cannot be used, and sends nothing', async () => {
    const sent = serveConfirm()
    const requests = countConfirmRequests()
    renderApp('/email-forwarding/confirm', { user: null })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link is incomplete: open the link in the email again, in full.',
    )
    expect(screen.queryByRole('button', { name: 'Confirm forwarding' })).not.toBeInTheDocument()
    expect(requests()).toBe(0)
    expect(sent).toEqual([])
  })

  it('lets the button be clicked again after an unexpected failure', async () => {
    const sent: unknown[] = []
    server.use(
      http.post(CONFIRM, async ({ request }) => {
        sent.push(await request.json())
        return sent.length === 1
          ? HttpResponse.json({ success: false }, { status: 502 })
          : HttpResponse.json({ success: true, data: { address: 'bob@example.net' } })
      }),
    )
    const { events } = renderApp('/email-forwarding/confirm?token=tok_123', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Confirm forwarding' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('An unexpected error occurred. Please try again.')
    await events.click(screen.getByRole('button', { name: 'Confirm forwarding' }))
    expect(await screen.findByText('Forwarding to bob@example.net is confirmed')).toBeInTheDocument()
    expect(sent).toEqual([{ token: 'tok_123' }, { token: 'tok_123' }])
  })
})
