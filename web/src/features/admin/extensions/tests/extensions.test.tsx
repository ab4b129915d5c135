import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, rules, server } from '@/test/server'
import type { AdminExtension, ExtensionInput } from '../api/extensions'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

// The server's bounds (GET /api/rules), not copies: a name's lengths, the least base price.
const { minLength, maxLength } = rules.domainName
const { minBasePrice } = rules.extensions

const infNz: AdminExtension = {
  id: 1,
  extension: '.inf.nz',
  basePrice: 8,
  description: 'Information sites',
  active: true,
  minNameLength: minLength,
  maxNameLength: maxLength,
  allowedCharacters: 'a-z0-9-',
  renewalPrice: 8,
  renewalPeriodDays: 365,
  gracePeriodDays: 30,
  lengthBasedPricing: [],
  dnsNameservers: ['ns1.example.net'],
  dnsProvider: 'cloudflare',
  hasDnsApiKey: true,
  hasDnsApiSecret: true,
  dnsApiKey: '••••1234',
  dnsApiSecret: '••••9876',
  dnsZoneId: 'zone-1',
  requiresVerification: false,
  verificationDocuments: [],
  verificationInstructions: '',
  adminEmail: 'ops@example.com',
  technicalEmail: '',
  billingEmail: '',
  whoisPrivacyEnabled: true,
  allowsSubdomains: true,
  allowsDnsManagement: true,
  allowsEmailForwarding: true,
}

/** Serves the admin's extension list and records what is written. */
function serveExtensions(list: AdminExtension[] = [infNz], failWith?: string) {
  const calls = { posts: [] as ExtensionInput[], patches: [] as { id: string; body: ExtensionInput }[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/domain-extensions', () => HttpResponse.json({ success: true, data: list })),
    http.post('/api/domain-extensions', async ({ request }) => {
      const body = (await request.json()) as ExtensionInput
      calls.posts.push(body)
      if (failWith) return HttpResponse.json({ success: false, error: failWith }, { status: 409 })
      return HttpResponse.json({ success: true, data: { ...infNz, ...body, id: 2 } }, { status: 201 })
    }),
    http.patch('/api/domain-extensions/:id', async ({ request, params }) => {
      const body = (await request.json()) as ExtensionInput
      calls.patches.push({ id: String(params.id), body })
      return HttpResponse.json({ success: true, data: { ...infNz, ...body } })
    }),
  )
  return calls
}

async function openTab(name: 'Domain Extensions' | 'Advanced Config') {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name }))
  const panel = within(await screen.findByRole('tabpanel', { name }))
  return { ...view, panel }
}

describe('Domain Extensions tab', () => {
  it('adds an extension with length rules; presets, default price and the overlap alert', async () => {
    const calls = serveExtensions()
    const { panel, events } = await openTab('Domain Extensions')
    expect(await panel.findByRole('cell', { name: '.inf.nz' })).toBeInTheDocument()
    await events.click(panel.getByRole('button', { name: 'Add Extension' }))

    await events.type(panel.getByLabelText('Extension'), '.shop.nz')
    await events.type(panel.getByLabelText('Description'), 'Shops and stores')
    const add = panel.getByRole('button', { name: 'Add Rule' })
    expect(add).toBeDisabled()

    // Preset 4 to the longest label, at twice the base price (8).
    await events.click(await panel.findByRole('button', { name: `4-${maxLength} characters` }))
    expect(panel.getByLabelText('Min length')).toHaveValue(4)
    expect(panel.getByLabelText('Max length')).toHaveValue(maxLength)
    expect(panel.getByLabelText('Rule price')).toHaveValue(16)
    await events.click(add)

    // Preset 1-3, promotional.
    await events.click(panel.getByRole('button', { name: `${minLength}-3 characters` }))
    expect(panel.queryByLabelText('Promotion label')).not.toBeInTheDocument()
    await events.click(panel.getByLabelText('Promotional rule'))
    await events.type(panel.getByLabelText('Promotion label'), 'Launch')
    expect(panel.getByLabelText('Promotion end date')).toBeInTheDocument()
    await events.click(add)

    // Sorted by minimum length.
    const rules = within(panel.getByRole('list', { name: 'Length pricing rules' })).getAllByRole('listitem')
    expect(rules.map((r) => r.textContent)).toEqual([
      expect.stringContaining(`${minLength}–3 characters`),
      expect.stringContaining(`4–${maxLength} characters`),
    ])

    // A third rule overlapping is refused.
    await events.type(panel.getByLabelText('Min length'), '2')
    await events.type(panel.getByLabelText('Max length'), '5')
    await events.click(add)
    expect(panel.getByRole('alert')).toHaveTextContent(
      'There is an overlap with an existing rule. Each domain length must be covered by only one rule.',
    )
    expect(within(panel.getByRole('list', { name: 'Length pricing rules' })).getAllByRole('listitem')).toHaveLength(2)

    // Editing a rule skips the overlap check.
    await events.click(panel.getByRole('button', { name: `Edit rule ${minLength}-3` }))
    await events.clear(panel.getByLabelText('Max length'))
    await events.type(panel.getByLabelText('Max length'), '5')
    await events.click(panel.getByRole('button', { name: 'Update Rule' }))
    expect(panel.getByText(`${minLength}–5 characters`)).toBeInTheDocument()

    await events.click(panel.getByRole('button', { name: 'Save Extension' }))
    await waitFor(() => expect(calls.posts).toHaveLength(1))
    expect(calls.posts[0]).toMatchObject({
      extension: '.shop.nz',
      basePrice: 8,
      minNameLength: minLength,
      active: true,
      lengthBasedPricing: [
        { minLength, maxLength: 5, price: 16, isPromotion: true, promotionLabel: 'Launch' },
        { minLength: 4, maxLength, price: 16, isPromotion: false },
      ],
    })
    expect(await screen.findByText('Domain extension has been added')).toBeInTheDocument()
  })

  it('shows the spec messages for bad input and server failures', async () => {
    serveExtensions([infNz], 'Extension .inf.nz already exists')
    const { panel, events } = await openTab('Domain Extensions')
    await events.click(await panel.findByRole('button', { name: 'Add Extension' }))
    await events.type(panel.getByLabelText('Extension'), 'com')
    await events.click(panel.getByRole('button', { name: 'Save Extension' }))
    expect(await panel.findByText("Extension must be in format like '.example.com'")).toBeInTheDocument()
    expect(panel.getByText('Description is required')).toBeInTheDocument()

    await events.clear(panel.getByLabelText('Extension'))
    await events.type(panel.getByLabelText('Extension'), '.inf.nz')
    await events.type(panel.getByLabelText('Description'), 'Duplicate one')
    await events.click(panel.getByRole('button', { name: 'Save Extension' }))
    expect(
      await screen.findByText('Failed to add domain extension: Extension .inf.nz already exists'),
    ).toBeInTheDocument()
  })

  it("checks the server's bounds: base price, name length and a rule's lengths and registrar price", async () => {
    const calls = serveExtensions()
    const { panel, events } = await openTab('Domain Extensions')
    await events.click(await panel.findByRole('button', { name: 'Add Extension' }))
    const type = async (label: string, value: string | number) => {
      await events.clear(panel.getByLabelText(label))
      await events.type(panel.getByLabelText(label), String(value))
    }
    await type('Extension', '.shop.nz')
    await type('Description', 'Shops and stores')

    // The inputs carry the bounds too.
    expect(panel.getByLabelText('Base price (USD)')).toHaveAttribute('min', String(minBasePrice))
    expect(panel.getByLabelText('Minimum name length')).toHaveAttribute('max', String(maxLength))
    expect(await panel.findByLabelText('Max length')).toHaveAttribute('max', String(maxLength))
    expect(panel.getByLabelText('Registrar price')).toHaveAttribute('min', String(minBasePrice))

    await type('Base price (USD)', minBasePrice - 0.01)
    await type('Minimum name length', maxLength + 1)
    await events.click(panel.getByRole('button', { name: 'Save Extension' }))
    expect(await panel.findByText(`Base price must be at least ${minBasePrice}`)).toBeInTheDocument()
    expect(panel.getByText(`Minimum name length must be ${minLength} to ${maxLength}`)).toBeInTheDocument()
    expect(calls.posts).toHaveLength(0)

    // A rule past the longest label, or below the least registrar price, cannot be added.
    const add = panel.getByRole('button', { name: 'Add Rule' })
    await type('Min length', 4)
    await type('Max length', maxLength + 1)
    await type('Rule price', 10)
    expect(add).toBeDisabled()
    await type('Max length', maxLength)
    expect(add).toBeEnabled()
    await type('Registrar price', minBasePrice - 0.01)
    expect(add).toBeDisabled()
    await type('Registrar price', minBasePrice)
    expect(add).toBeEnabled()
    await type('Min length', minLength - 1)
    expect(add).toBeDisabled()
    await type('Min length', minLength)
    await events.click(add)

    // The bounds themselves are sent.
    await type('Base price (USD)', minBasePrice)
    await type('Minimum name length', maxLength)
    await events.click(panel.getByRole('button', { name: 'Save Extension' }))
    await waitFor(() => expect(calls.posts).toHaveLength(1))
    expect(calls.posts[0]).toMatchObject({
      basePrice: minBasePrice,
      minNameLength: maxLength,
      lengthBasedPricing: [{ minLength, maxLength, price: 10, registrarPrice: minBasePrice }],
    })
  })

  it('deactivates and deletes after confirming', async () => {
    const calls = serveExtensions()
    let deleted = false
    server.use(
      http.delete('/api/domain-extensions/1', () => {
        deleted = true
        return HttpResponse.json({ success: false, error: 'Extension .inf.nz has registered domains' }, { status: 409 })
      }),
    )
    const { panel, events } = await openTab('Domain Extensions')
    const table = within(await panel.findByRole('table', { name: 'Domain extensions' }))
    await events.click(table.getByRole('button', { name: 'Deactivate .inf.nz' }))
    await waitFor(() => expect(calls.patches).toEqual([{ id: '1', body: { active: false } }]))
    expect(await screen.findByText('.inf.nz is now inactive: it is no longer offered')).toBeInTheDocument()

    await events.click(table.getByRole('button', { name: 'Delete .inf.nz' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete .inf.nz?' }))
    await events.click(dialog.getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toBe(true))
    expect(
      await screen.findByText('Failed to delete domain extension: Extension .inf.nz has registered domains'),
    ).toBeInTheDocument()
  })

  it('gives phones a card per extension with its status, price, description and actions', async () => {
    const rule = {
      minLength,
      maxLength: 3,
      price: 16,
      isPromotion: false,
      promotionLabel: '',
      promotionStartDate: null,
      promotionEndDate: null,
      inForce: true,
    }
    const calls = serveExtensions([{ ...infNz, lengthBasedPricing: [rule] }])
    const { panel, events } = await openTab('Domain Extensions')
    // The cards are the list; CSS shows them below the sm breakpoint instead of the table.
    const cards = within(await panel.findByRole('list', { name: 'Domain extensions' })).getAllByRole('listitem')
    expect(cards).toHaveLength(1)
    const card = within(cards[0])
    expect(card.getByText('.inf.nz')).toBeInTheDocument()
    expect(card.getByText('Active')).toBeInTheDocument()
    expect(card.getByText('$8.00')).toBeInTheDocument()
    expect(card.getByText('1 length rule')).toBeInTheDocument()
    expect(card.getByText('Information sites')).toBeInTheDocument()
    await events.click(card.getByRole('button', { name: 'Deactivate .inf.nz' }))
    await waitFor(() => expect(calls.patches).toEqual([{ id: '1', body: { active: false } }]))
    await events.click(card.getByRole('button', { name: 'Edit .inf.nz' }))
    expect(await panel.findByText('Edit .inf.nz')).toBeInTheDocument()
  })

  it('says when there are no extensions', async () => {
    serveExtensions([])
    const { panel } = await openTab('Domain Extensions')
    expect(await panel.findByText('No domain extensions found')).toBeInTheDocument()
  })
})

describe('Advanced Config tab', () => {
  it('shows masked secrets, enables Update only after a change, and sends a secret only when retyped', async () => {
    const calls = serveExtensions()
    const { panel, events } = await openTab('Advanced Config')
    const nav = within(await panel.findByRole('navigation', { name: 'Extensions' }))
    expect(nav.getByRole('button', { name: /\.inf\.nz\s*Active/ })).toBeInTheDocument()
    expect(nav.getByRole('button', { name: '+ Add New Extension' })).toBeInTheDocument()

    const update = panel.getByRole('button', { name: 'Update Extension' })
    expect(update).toBeDisabled()
    expect(panel.getByLabelText('Extension')).toHaveValue('inf.nz')

    await events.click(panel.getByRole('tab', { name: 'DNS' }))
    expect(panel.getByLabelText('DNS API key')).toHaveValue('••••1234')
    expect(panel.getByLabelText('DNS API secret')).toHaveValue('••••9876')

    // A change elsewhere: the masked secrets are not sent.
    await events.type(panel.getByLabelText('DNS zone ID'), '-b')
    expect(update).toBeEnabled()
    await events.click(update)
    await waitFor(() => expect(calls.patches).toHaveLength(1))
    expect(calls.patches[0].body).toMatchObject({ dnsZoneId: 'zone-1-b', extension: 'inf.nz' })
    expect(calls.patches[0].body).not.toHaveProperty('dnsApiKey')
    expect(calls.patches[0].body).not.toHaveProperty('dnsApiSecret')
  })

  it('sends a new secret the admin typed, and hides provider fields for custom', async () => {
    const calls = serveExtensions()
    const { panel, events } = await openTab('Advanced Config')
    await events.click(await panel.findByRole('tab', { name: 'DNS' }))
    const key = panel.getByLabelText('DNS API key')
    await events.clear(key)
    await events.type(key, 'new-key-5678')
    await events.click(panel.getByRole('button', { name: 'Update Extension' }))
    await waitFor(() => expect(calls.patches).toHaveLength(1))
    expect(calls.patches[0].body.dnsApiKey).toBe('new-key-5678')
    expect(calls.patches[0].body).not.toHaveProperty('dnsApiSecret')

    await events.selectOptions(panel.getByLabelText('DNS provider'), 'custom')
    expect(panel.queryByLabelText('DNS API key')).not.toBeInTheDocument()
    expect(panel.queryByLabelText('DNS API secret')).not.toBeInTheDocument()
    expect(panel.queryByLabelText('DNS zone ID')).not.toBeInTheDocument()
  })

  it('creates a new extension; the extension is required', async () => {
    const calls = serveExtensions()
    const { panel, events } = await openTab('Advanced Config')
    await events.click(await panel.findByRole('button', { name: '+ Add New Extension' }))
    const create = panel.getByRole('button', { name: 'Create Extension' })
    expect(create).toBeDisabled()
    await events.type(panel.getByLabelText('Description'), 'Shops and stores')
    await events.click(create)
    expect(await screen.findByText('Domain extension is required')).toBeInTheDocument()
    expect(screen.getByText('Validation Error')).toBeInTheDocument()

    await events.type(panel.getByLabelText('Extension'), 'shop.nz')
    await events.click(panel.getByRole('tab', { name: 'DNS' }))
    await events.type(panel.getByLabelText('Nameservers'), 'ns1.example.net\nns1.example.net\nns2.example.net')
    await events.click(create)
    await waitFor(() => expect(calls.posts).toHaveLength(1))
    expect(calls.posts[0]).toMatchObject({
      extension: 'shop.nz',
      dnsNameservers: ['ns1.example.net', 'ns2.example.net'],
      minNameLength: 3,
      maxNameLength: 63,
      renewalPeriodDays: 365,
      gracePeriodDays: 30,
      dnsProvider: 'custom',
    })
    expect(calls.posts[0]).not.toHaveProperty('dnsApiKey')
    expect(await screen.findByText('Domain extension has been added')).toBeInTheDocument()
  })

  it('each tab has a help link about the admin tools', async () => {
    serveExtensions()
    const { panel, events } = await openTab('Advanced Config')
    await events.click(await panel.findByRole('button', { name: 'Help: Admin tools' }))
    const help = panel.getByRole('dialog', { name: 'Help: Admin tools' })
    expect(await within(help).findByText(/only their last 4 characters/)).toBeInTheDocument()
  })
})
