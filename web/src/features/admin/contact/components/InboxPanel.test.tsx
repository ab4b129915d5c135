import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { ContactMessage } from '../api/contact'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

function message(id: number, fields: Partial<ContactMessage>): ContactMessage {
  return {
    id,
    kind: 'request',
    name: 'Acme Ltd',
    email: 'ops@acme.example',
    interest: 'registrar',
    message: '',
    status: 'new',
    answeredAt: null,
    createdAt: '2026-11-20T09:30:00Z',
    ...fields,
  }
}

/** A fake inbox over list: opening marks read, replying answers; records what was asked. */
function serveInbox(list: ContactMessage[], options: { replyError?: { status: number; error: string } } = {}) {
  const state = { list: [...list], asked: [] as string[], replies: [] as unknown[] }
  const unread = () => state.list.filter((m) => m.status === 'new').length
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/site-settings', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/admin/contact-messages', ({ request }) => {
      const url = new URL(request.url)
      state.asked.push(url.search)
      const status = url.searchParams.get('status')
      const messages = state.list.filter((m) => !status || m.status === status)
      return HttpResponse.json({
        success: true,
        data: { messages, total: messages.length, unread: unread(), page: 1, pageSize: 20 },
      })
    }),
    http.get('/api/admin/contact-messages/:id', ({ params }) => {
      const m = state.list.find((x) => String(x.id) === params.id)!
      if (m.status === 'new') m.status = 'read'
      return HttpResponse.json({ success: true, data: m })
    }),
    http.post('/api/admin/contact-messages/:id/reply', async ({ params, request }) => {
      state.replies.push(await request.json())
      if (options.replyError) {
        return HttpResponse.json(
          { success: false, error: options.replyError.error },
          { status: options.replyError.status },
        )
      }
      const m = state.list.find((x) => String(x.id) === params.id)!
      Object.assign(m, {
        status: 'answered',
        reply: 'Welcome aboard!',
        answeredBy: 'root',
        answeredAt: '2026-11-21T10:00:00Z',
      })
      return HttpResponse.json({ success: true, data: m })
    }),
  )
  return state
}

async function openInbox() {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name: 'Inbox' }))
  const panel = within(await screen.findByRole('tabpanel', { name: 'Inbox' }))
  return { ...view, panel }
}

describe('admin inbox', () => {
  it('lists messages with the unread count, opens one and replies to it', async () => {
    const state = serveInbox([
      message(2, {
        kind: 'message',
        name: 'Bo',
        email: 'bo@example.org',
        interest: undefined,
        subject: 'Transfers',
        message: 'How do I move my name here?',
      }),
      message(1, { message: 'We resell names to 300 clients.' }),
    ])
    const { events, panel } = await openInbox()
    expect(await panel.findByText('2 unread')).toBeInTheDocument()
    const list = within(panel.getByRole('list', { name: 'Messages' }))
    const items = list.getAllByRole('button')
    expect(items[0]).toHaveTextContent('Bo')
    expect(items[0]).toHaveTextContent('Transfers')
    expect(items[1]).toHaveTextContent('Acme Ltd')
    expect(items[1]).toHaveTextContent('ops@acme.example')
    expect(items[1]).toHaveTextContent('Becoming a registrar partner')
    expect(items[1]).toHaveTextContent('New')

    await events.click(items[1])
    const detail = within(await panel.findByRole('article', { name: 'Message from Acme Ltd' }))
    expect(detail.getByText('We resell names to 300 clients.')).toBeInTheDocument()
    // Opening it marked it read: the count follows.
    expect(await panel.findByText('1 unread')).toBeInTheDocument()

    await events.click(detail.getByRole('button', { name: 'Send reply' }))
    expect(await detail.findByText('Write a reply first')).toBeInTheDocument()
    expect(state.replies).toEqual([])
    await events.type(detail.getByLabelText('Reply to ops@acme.example'), 'Welcome aboard!')
    await events.click(detail.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('Reply sent')).toBeInTheDocument()
    expect(screen.getByText('Your answer is on its way to ops@acme.example.')).toBeInTheDocument()
    expect(state.replies).toEqual([{ message: 'Welcome aboard!' }])
    expect(await detail.findByText('Answered by root', { exact: false })).toBeInTheDocument()
    expect(detail.getByText('Welcome aboard!')).toBeInTheDocument()
    expect(detail.queryByRole('button', { name: 'Send reply' })).not.toBeInTheDocument()
  })

  it('filters by status', async () => {
    const state = serveInbox([message(1, { status: 'answered', name: 'Done Ltd' }), message(2, { name: 'Fresh Ltd' })])
    const { events, panel } = await openInbox()
    await panel.findByText('Done Ltd')
    await events.selectOptions(panel.getByLabelText('Show'), 'New')
    await screen.findByText('1 message · page 1 of 1')
    expect(panel.queryByText('Done Ltd')).not.toBeInTheDocument()
    expect(state.asked.at(-1)).toContain('status=new')
  })

  it("shows the server's refusal of a reply", async () => {
    serveInbox([message(1, {})], { replyError: { status: 409, error: 'This message has already been answered' } })
    const { events, panel } = await openInbox()
    await events.click(await panel.findByRole('button', { name: /Acme Ltd/ }))
    const detail = within(await panel.findByRole('article', { name: 'Message from Acme Ltd' }))
    expect(detail.getByText("No message: the sender filled in the form's fields only.")).toBeInTheDocument()
    await events.type(detail.getByLabelText('Reply to ops@acme.example'), 'Hello')
    await events.click(detail.getByRole('button', { name: 'Send reply' }))
    expect(await screen.findByText('This message has already been answered')).toBeInTheDocument()
    expect(screen.queryByText('Reply sent')).not.toBeInTheDocument()
  })

  it('says so when the inbox is empty', async () => {
    serveInbox([])
    const { panel } = await openInbox()
    expect(await panel.findByText('No messages yet')).toBeInTheDocument()
  })
})
