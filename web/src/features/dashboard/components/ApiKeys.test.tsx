import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Schema } from '@/lib/schemas'
import { renderApp } from '@/test/renderApp'
import { registrar, registrarApiKey, registrarDefaultKey, server } from '@/test/server'
import { keyRequest } from './CreateKeyDialog'

type ApiKey = Schema<'APIKey'>

const deploys: ApiKey = {
  id: 7,
  name: 'CI deploys',
  scopes: ['read', 'dns'],
  allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'],
  expiresAt: '2099-03-01T00:00:00Z',
  createdAt: '2026-02-01T10:00:00Z',
  lastUsedAt: '2026-11-20T14:05:00Z',
  primary: false,
}

const expired: ApiKey = {
  id: 8,
  name: 'Old reports',
  scopes: ['read'],
  allowedAddresses: [],
  expiresAt: '2020-01-01T00:00:00Z',
  createdAt: '2019-06-01T10:00:00Z',
  primary: false,
}

/**
 * A registrar's server that keeps its keys: the list, creating (answering
 * the secret), rotating and revoking change it, and each call is recorded.
 */
function serveKeys(initial: ApiKey[] = [registrarDefaultKey, deploys]) {
  let keys = [...initial]
  const calls: { method: string; path: string; body?: unknown }[] = []
  let nextId = 100
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    http.get('/api/registrar/keys', () => HttpResponse.json({ success: true, data: keys })),
    http.post('/api/registrar/keys', async ({ request }) => {
      const body = (await request.json()) as Schema<'APIKeyRequest'>
      calls.push({ method: 'POST', path: '/api/registrar/keys', body })
      const key: ApiKey = {
        id: nextId++,
        name: body.name,
        scopes: body.scopes,
        allowedAddresses: body.allowedAddresses ?? [],
        expiresAt: body.expiresAt,
        createdAt: '2026-11-22T12:00:00Z',
        primary: false,
      }
      keys = [...keys, key]
      return HttpResponse.json({ success: true, data: { key, secret: 'np_NEWSECRET0123456789' } }, { status: 201 })
    }),
    http.post('/api/registrar/keys/:id/rotate', ({ params }) => {
      calls.push({ method: 'POST', path: `/api/registrar/keys/${params.id}/rotate` })
      const key = keys.find((k) => String(k.id) === params.id)!
      return HttpResponse.json({ success: true, data: { key, secret: 'np_ROTATED9876543210' } })
    }),
    http.delete('/api/registrar/keys/:id', ({ params }) => {
      calls.push({ method: 'DELETE', path: `/api/registrar/keys/${params.id}` })
      keys = keys.filter((k) => String(k.id) !== params.id)
      return HttpResponse.json({ success: true })
    }),
  )
  return calls
}

async function openApiTab() {
  const view = renderApp('/registrar-dashboard?tab=api', { user: registrar })
  await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue(registrarApiKey))
  const table = await screen.findByRole('table', { name: 'API keys' })
  return { ...view, table }
}

function rowOf(table: HTMLElement, name: string) {
  return within(table).getByRole('row', { name: new RegExp(name) })
}

describe('the API keys list', () => {
  it('shows each key with its scopes, addresses, expiry and last use', async () => {
    serveKeys([registrarDefaultKey, deploys, expired])
    const { table } = await openApiTab()

    const first = within(rowOf(table, 'Default'))
    expect(first.getByText('All scopes')).toBeInTheDocument()
    expect(first.getByText('Anywhere')).toBeInTheDocument()
    expect(first.getAllByText('Never')).toHaveLength(2) // no expiry, no use yet
    expect(first.getByText('The key shown above')).toBeInTheDocument()
    expect(first.getByRole('button', { name: 'Rotate key Default' })).toBeInTheDocument()
    expect(first.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument()

    const ci = within(rowOf(table, 'CI deploys'))
    expect(ci.getByText('Read')).toBeInTheDocument()
    expect(ci.getByText('DNS')).toBeInTheDocument()
    expect(ci.queryByText('Wallet')).not.toBeInTheDocument()
    expect(ci.getByText('203.0.113.0/24')).toBeInTheDocument()
    expect(ci.getByText('2001:db8::/32')).toBeInTheDocument()
    expect(ci.getByText('Mar 1, 2099')).toBeInTheDocument()
    expect(ci.getByText('Nov 20, 2026')).toBeInTheDocument()
    expect(ci.getByText('Created Feb 1, 2026')).toBeInTheDocument()
    expect(ci.getByRole('button', { name: 'Revoke key CI deploys' })).toBeInTheDocument()

    expect(within(rowOf(table, 'Old reports')).getByText('Expired')).toBeInTheDocument()
  })
})

describe('creating a key', () => {
  it('asks for a name and a scope before it sends anything', async () => {
    const calls = serveKeys()
    const { events } = await openApiTab()
    await events.click(screen.getByRole('button', { name: 'Create key' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create API key' }))
    expect(dialog.getByRole('checkbox', { name: /Read/ })).toBeChecked()
    await events.click(dialog.getByRole('checkbox', { name: /Read/ }))
    await events.click(dialog.getByRole('button', { name: 'Create key' }))
    expect(await dialog.findByText('Give the key a name, such as the program that will use it')).toBeInTheDocument()
    expect(dialog.getByText('Choose at least one scope')).toBeInTheDocument()
    expect(calls).toEqual([])
  })

  it('sends the key, shows its secret once with a copy button, and lists it', async () => {
    const calls = serveKeys()
    const { events } = await openApiTab()
    await events.click(screen.getByRole('button', { name: 'Create key' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create API key' }))
    await events.type(dialog.getByLabelText('Name'), '  Billing bot ')
    await events.click(dialog.getByRole('checkbox', { name: /Read/ }))
    await events.click(dialog.getByRole('checkbox', { name: /Wallet/ }))
    await events.type(
      dialog.getByLabelText('Allowed addresses (optional)'),
      '198.51.100.7{enter}2001:db8::1, 10.0.0.0/8',
    )
    await events.type(dialog.getByLabelText('Expires on (optional)'), '2099-12-31')
    await events.click(dialog.getByRole('button', { name: 'Create key' }))

    const shown = within(await screen.findByRole('dialog', { name: 'Billing bot is ready' }))
    expect(shown.getByLabelText('New API key')).toHaveValue('np_NEWSECRET0123456789')
    expect(shown.getByText(/This is the only time this key is shown/)).toBeInTheDocument()
    await events.click(shown.getByRole('button', { name: 'Copy API key' }))
    expect(await navigator.clipboard.readText()).toBe('np_NEWSECRET0123456789')
    expect(shown.getByRole('button', { name: 'API key copied' })).toBeInTheDocument()

    expect(calls).toHaveLength(1)
    const body = calls[0].body as Schema<'APIKeyRequest'>
    expect(body).toMatchObject({
      name: 'Billing bot',
      scopes: ['wallet'],
      allowedAddresses: ['198.51.100.7', '2001:db8::1', '10.0.0.0/8'],
    })
    expect(new Date(body.expiresAt!).getFullYear()).toBe(2099)

    await events.click(shown.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.queryByText('np_NEWSECRET0123456789')).not.toBeInTheDocument()
    expect(screen.queryByDisplayValue('np_NEWSECRET0123456789')).not.toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'API keys' })
    await waitFor(() => expect(rowOf(table, 'Billing bot')).toBeInTheDocument())
  })

  it("shows the server's refusal in the dialog", async () => {
    serveKeys()
    server.use(
      http.post('/api/registrar/keys', () =>
        HttpResponse.json(
          { success: false, error: '"10.0.0.0/33" is not an IP address or prefix', code: 'invalid' },
          { status: 422 },
        ),
      ),
    )
    const { events } = await openApiTab()
    await events.click(screen.getByRole('button', { name: 'Create key' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Create API key' }))
    await events.type(dialog.getByLabelText('Name'), 'x')
    await events.type(dialog.getByLabelText('Allowed addresses (optional)'), '10.0.0.0/33')
    await events.click(dialog.getByRole('button', { name: 'Create key' }))
    expect(await dialog.findByText('"10.0.0.0/33" is not an IP address or prefix')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Create API key' })).toBeInTheDocument()
  })

  it('leaves the addresses and expiry out when not given', () => {
    expect(keyRequest({ name: ' a ', scopes: ['read'], allowed: ' \n ', expires: '' })).toEqual({
      name: 'a',
      scopes: ['read'],
    })
  })
})

describe('rotating and revoking', () => {
  it('rotates after asking, and shows the new secret once', async () => {
    const calls = serveKeys()
    const { events, table } = await openApiTab()
    await events.click(within(rowOf(table, 'CI deploys')).getByRole('button', { name: 'Rotate key CI deploys' }))
    let confirm = within(await screen.findByRole('dialog', { name: 'Rotate CI deploys?' }))
    await events.click(confirm.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls).toEqual([])

    await events.click(within(rowOf(table, 'CI deploys')).getByRole('button', { name: 'Rotate key CI deploys' }))
    confirm = within(await screen.findByRole('dialog', { name: 'Rotate CI deploys?' }))
    expect(confirm.getByText(/Its secret stops working at once/)).toBeInTheDocument()
    await events.click(confirm.getByRole('button', { name: 'Rotate key' }))
    const shown = within(await screen.findByRole('dialog', { name: 'New secret for CI deploys' }))
    expect(shown.getByLabelText('New API key')).toHaveValue('np_ROTATED9876543210')
    expect(shown.getByText('The old secret no longer works. Give your programs this one.')).toBeInTheDocument()
    expect(calls).toEqual([{ method: 'POST', path: '/api/registrar/keys/7/rotate' }])
  })

  it('rotating the Default key changes the key the card above shows', async () => {
    serveKeys()
    let shownKey = registrarApiKey
    server.use(
      http.get('/api/registrar/api-key', () => HttpResponse.json({ success: true, data: { apiKey: shownKey } })),
      http.post('/api/registrar/keys/1/rotate', () => {
        shownKey = 'np_ROTATED9876543210'
        return HttpResponse.json({ success: true, data: { key: registrarDefaultKey, secret: shownKey } })
      }),
    )
    const { events, table } = await openApiTab()
    await events.click(within(rowOf(table, 'Default')).getByRole('button', { name: 'Rotate key Default' }))
    const confirm = within(await screen.findByRole('dialog', { name: 'Rotate Default?' }))
    await events.click(confirm.getByRole('button', { name: 'Rotate key' }))
    const shown = within(await screen.findByRole('dialog', { name: 'New secret for Default' }))
    await events.click(shown.getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue('np_ROTATED9876543210'))
  })

  it('revokes after asking, and the key leaves the list', async () => {
    const calls = serveKeys()
    const { events, table } = await openApiTab()
    await events.click(within(rowOf(table, 'CI deploys')).getByRole('button', { name: 'Revoke key CI deploys' }))
    const confirm = within(await screen.findByRole('dialog', { name: 'Revoke CI deploys?' }))
    expect(confirm.getByText(/lose access at once/)).toBeInTheDocument()
    await events.click(confirm.getByRole('button', { name: 'Revoke key' }))
    expect(await screen.findByText('API key revoked')).toBeInTheDocument()
    expect(screen.getByText('CI deploys no longer works.')).toBeInTheDocument()
    await waitFor(() => expect(within(table).queryByText('CI deploys')).not.toBeInTheDocument())
    expect(calls).toEqual([{ method: 'DELETE', path: '/api/registrar/keys/7' }])
  })
})
