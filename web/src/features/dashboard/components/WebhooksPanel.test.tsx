import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Schema } from '@/lib/schemas'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'

type Endpoint = Schema<'WebhookEndpoint'>
type Delivery = Schema<'WebhookDelivery'>

const eventTypes = [
  'domain.registered',
  'domain.renewed',
  'domain.expiring',
  'domain.expired',
  'domain.released',
  'wallet.deposit_completed',
  'dns.changed',
]

const delivered: Delivery = {
  id: 31,
  endpointId: 5,
  eventId: 'evt_1',
  eventType: 'domain.registered',
  state: 'succeeded',
  attempts: 2,
  statusCode: 200,
  latencyMs: 84,
  createdAt: '2026-11-20T14:05:00Z',
  deliveredAt: '2026-11-20T14:06:00Z',
}

const existing: Endpoint = {
  id: 5,
  url: 'https://hooks.example.com/nameport',
  events: ['domain.registered', 'dns.changed'],
  enabled: true,
  createdAt: '2026-11-01T10:00:00Z',
  lastDelivery: delivered,
}

/** A registrar's server that keeps its endpoints and deliveries, recording each call. */
function serveWebhooks(initial: Endpoint[] = [existing]) {
  let endpoints = [...initial]
  const deliveries: Record<number, Delivery[]> = { 5: [delivered] }
  const calls: { method: string; path: string; body?: unknown }[] = []
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    http.get('/api/registrar/webhooks', () => HttpResponse.json({ success: true, data: { endpoints, eventTypes } })),
    http.post('/api/registrar/webhooks', async ({ request }) => {
      const body = (await request.json()) as Schema<'WebhookEndpointRequest'>
      calls.push({ method: 'POST', path: '/api/registrar/webhooks', body })
      if (body.url.startsWith('http://')) {
        return HttpResponse.json(
          { success: false, error: `"${body.url}" cannot be a webhook URL: it must start with https://` },
          { status: 422 },
        )
      }
      const endpoint: Endpoint = {
        id: 9,
        url: body.url,
        events: body.events,
        enabled: true,
        createdAt: '2026-11-22T12:00:00Z',
      }
      endpoints = [...endpoints, endpoint]
      return HttpResponse.json({ success: true, data: { endpoint, secret: 'whsec_SHOWNONCE' } }, { status: 201 })
    }),
    http.post('/api/registrar/webhooks/:id/test', ({ params }) => {
      calls.push({ method: 'POST', path: `/api/registrar/webhooks/${params.id}/test` })
      const d: Delivery = {
        id: 40,
        endpointId: Number(params.id),
        eventId: 'evt_test',
        eventType: 'webhook.test',
        state: 'succeeded',
        attempts: 1,
        statusCode: 204,
        latencyMs: 12,
        createdAt: '2026-11-22T12:01:00Z',
      }
      deliveries[Number(params.id)] = [d, ...(deliveries[Number(params.id)] ?? [])]
      return HttpResponse.json({ success: true, data: d })
    }),
    http.get('/api/registrar/webhooks/:id/deliveries', ({ params }) =>
      HttpResponse.json({ success: true, data: { deliveries: deliveries[Number(params.id)] ?? [] } }),
    ),
    http.patch('/api/registrar/webhooks/:id', async ({ params, request }) => {
      const body = (await request.json()) as Schema<'WebhookEndpointUpdate'>
      calls.push({ method: 'PATCH', path: `/api/registrar/webhooks/${params.id}`, body })
      endpoints = endpoints.map((e) =>
        String(e.id) === params.id ? { ...e, events: body.events ?? e.events, enabled: body.enabled ?? e.enabled } : e,
      )
      return HttpResponse.json({ success: true, data: endpoints.find((e) => String(e.id) === params.id) })
    }),
    http.delete('/api/registrar/webhooks/:id', ({ params }) => {
      calls.push({ method: 'DELETE', path: `/api/registrar/webhooks/${params.id}` })
      endpoints = endpoints.filter((e) => String(e.id) !== params.id)
      return HttpResponse.json({ success: true })
    }),
  )
  return calls
}

async function openTab() {
  const view = renderApp('/registrar-dashboard?tab=webhooks', { user: registrar })
  const list = await screen.findByRole('list', { name: 'Webhook endpoints' })
  return { ...view, list }
}

describe('Webhooks tab', () => {
  it('lists endpoints with their events and last delivery, and shows the delivery log', async () => {
    serveWebhooks()
    const { list } = await openTab()
    expect(within(list).getByText('https://hooks.example.com/nameport')).toBeInTheDocument()
    expect(within(list).getByText('dns.changed')).toBeInTheDocument()
    expect(within(list).getByText(/Last delivery/)).toBeInTheDocument()
    await userEvent.click(within(list).getByRole('button', { name: 'Deliveries' }))
    const log = await screen.findByRole('table', { name: 'Deliveries to https://hooks.example.com/nameport' })
    const row = within(log).getAllByRole('row')[1]
    expect(within(row).getByText('domain.registered')).toBeInTheDocument()
    expect(within(row).getByText('200')).toBeInTheDocument()
    expect(within(row).getByText('84 ms')).toBeInTheDocument()
    expect(within(row).getByText('Delivered')).toBeInTheDocument()
  })

  it('adds an endpoint, shows its secret once, and refuses what the server refuses', async () => {
    const calls = serveWebhooks([])
    renderApp('/registrar-dashboard?tab=webhooks', { user: registrar })
    await screen.findByText('No endpoints yet. Add one to receive events.')
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }))
    const form = await screen.findByRole('form', { name: 'Add endpoint' })
    await userEvent.type(within(form).getByLabelText('Endpoint URL'), 'http://insecure.example.com/')
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('it must start with https://')

    await userEvent.clear(within(form).getByLabelText('Endpoint URL'))
    await userEvent.type(within(form).getByLabelText('Endpoint URL'), 'https://hooks.example.com/new')
    for (const e of [
      'domain.expiring',
      'domain.expired',
      'domain.released',
      'wallet.deposit_completed',
      'dns.changed',
    ]) {
      await userEvent.click(within(form).getByRole('checkbox', { name: new RegExp(e.replace('.', '\\.')) }))
    }
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }))
    expect(await screen.findByLabelText('Signing secret')).toHaveValue('whsec_SHOWNONCE')
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/api/registrar/webhooks',
      body: { url: 'https://hooks.example.com/new', events: ['domain.registered', 'domain.renewed'] },
    })
    await userEvent.click(screen.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByLabelText('Signing secret')).not.toBeInTheDocument())
    expect(await screen.findByText('https://hooks.example.com/new')).toBeInTheDocument()
  })

  it('sends a test event and deletes an endpoint after asking', async () => {
    const calls = serveWebhooks()
    const { list } = await openTab()
    await userEvent.click(within(list).getByRole('button', { name: 'Send test event' }))
    const log = await screen.findByRole('table', { name: 'Deliveries to https://hooks.example.com/nameport' })
    expect(await within(log).findByText('webhook.test')).toBeInTheDocument()
    expect(calls).toContainEqual({ method: 'POST', path: '/api/registrar/webhooks/5/test' })

    await userEvent.click(
      within(list).getByRole('button', { name: 'Delete endpoint https://hooks.example.com/nameport' }),
    )
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await screen.findByText('No endpoints yet. Add one to receive events.')
    expect(calls).toContainEqual({ method: 'DELETE', path: '/api/registrar/webhooks/5' })
  })

  it('turns an endpoint off and on, and edits its events', async () => {
    const calls = serveWebhooks()
    const { list } = await openTab()
    const toggle = within(list).getByRole('switch', { name: 'Enable endpoint https://hooks.example.com/nameport' })
    expect(toggle).toBeChecked()
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).not.toBeChecked())
    expect(within(list).getByText('Disabled')).toBeInTheDocument()
    expect(calls).toContainEqual({ method: 'PATCH', path: '/api/registrar/webhooks/5', body: { enabled: false } })
    await userEvent.click(toggle)
    await waitFor(() => expect(toggle).toBeChecked())

    await userEvent.click(
      within(list).getByRole('button', { name: 'Edit events of https://hooks.example.com/nameport' }),
    )
    const form = await screen.findByRole('form', { name: 'Edit events' })
    expect(within(form).queryByLabelText('Endpoint URL')).not.toBeInTheDocument()
    expect(within(form).getByRole('checkbox', { name: /domain\.registered/ })).toBeChecked()
    expect(within(form).getByRole('checkbox', { name: /domain\.renewed/ })).not.toBeChecked()
    await userEvent.click(within(form).getByRole('checkbox', { name: /domain\.registered/ }))
    await userEvent.click(within(form).getByRole('checkbox', { name: /dns\.changed/ }))
    await userEvent.click(within(form).getByRole('button', { name: 'Save events' }))
    expect(await within(form).findByText('Choose at least one event')).toBeInTheDocument()
    await userEvent.click(within(form).getByRole('checkbox', { name: /domain\.renewed/ }))
    await userEvent.click(within(form).getByRole('button', { name: 'Save events' }))
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit events' })).not.toBeInTheDocument())
    expect(calls).toContainEqual({
      method: 'PATCH',
      path: '/api/registrar/webhooks/5',
      body: { events: ['domain.renewed'] },
    })
    expect(await within(list).findByText('domain.renewed')).toBeInTheDocument()
  })
})
