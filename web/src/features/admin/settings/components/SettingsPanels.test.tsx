import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { SiteSetting } from '../api/settings'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

let nextId = 100
function setting(key: string, value: string, extra: Partial<SiteSetting> = {}): SiteSetting {
  return {
    id: nextId++,
    key,
    value,
    category: 'branding',
    description: '',
    isPublic: true,
    createdAt: '2026-03-04T10:00:00Z',
    updatedAt: '2026-03-04T10:00:00Z',
    ...extra,
  }
}

/** A fake /api/site-settings over a list, recording the writes. */
function serveSettings(initial: SiteSetting[], opts: { failPosts?: boolean; failPatch?: boolean } = {}) {
  const state = { list: [...initial], posts: [] as Record<string, unknown>[], patches: [] as Record<string, unknown>[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/site-settings', () => HttpResponse.json({ success: true, data: state.list })),
    http.post('/api/site-settings', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      state.posts.push(body)
      if (opts.failPosts) return HttpResponse.json({ success: false, error: 'Database is read-only' }, { status: 500 })
      if (state.list.some((s) => s.key === body.key)) {
        return HttpResponse.json({ success: false, error: `Setting ${body.key} already exists` }, { status: 409 })
      }
      const s = setting(String(body.key), String(body.value), body as Partial<SiteSetting>)
      state.list.push(s)
      return HttpResponse.json({ success: true, data: s }, { status: 201 })
    }),
    http.patch('/api/site-settings/:id', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>
      state.patches.push(body)
      if (opts.failPatch) return HttpResponse.json({ success: false, error: 'Nope' }, { status: 500 })
      const i = state.list.findIndex((s) => s.id === Number(params.id))
      state.list[i] = { ...state.list[i], ...body, updatedAt: new Date().toISOString() }
      return HttpResponse.json({ success: true, data: state.list[i] })
    }),
    http.delete('/api/site-settings/:id', ({ params }) => {
      state.list = state.list.filter((s) => s.id !== Number(params.id))
      return HttpResponse.json({ success: true })
    }),
  )
  return state
}

async function openTab(name: string) {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name }))
  const panel = within(await screen.findByRole('tabpanel', { name }))
  return { ...view, panel }
}

describe('Site Settings tab', () => {
  it('lists settings by category and creates one with the spec validation', async () => {
    const state = serveSettings([
      setting('site_name', 'Nameport'),
      setting('support_email', 'help@nameport.test', { category: 'contact', isPublic: false }),
    ])
    const { panel, events } = await openTab('Site Settings')
    expect(await panel.findByText('site_name')).toBeInTheDocument()
    expect(panel.queryByText('support_email')).not.toBeInTheDocument()
    await events.click(panel.getByRole('tab', { name: 'Contact Info' }))
    expect(await panel.findByText('support_email')).toBeInTheDocument()
    expect(panel.getByText('Private')).toBeInTheDocument()

    const form = within(panel.getByRole('form', { name: 'New setting' }))
    await events.click(form.getByRole('button', { name: 'Create Setting' }))
    expect(await form.findByText('Setting key is required')).toBeInTheDocument()
    expect(form.getByText('Setting value is required')).toBeInTheDocument()
    expect(state.posts).toHaveLength(0)

    await events.type(form.getByLabelText('Key'), 'support_phone')
    await events.type(form.getByLabelText('Value'), '+64 9 555 0100')
    await events.click(form.getByRole('button', { name: 'Create Setting' }))
    expect(await screen.findByText('Site setting created successfully')).toBeInTheDocument()
    expect(state.posts[0]).toMatchObject({ key: 'support_phone', category: 'contact', isPublic: true })
  })

  it('edits a selected setting and shows the server message on failure', async () => {
    const state = serveSettings([setting('site_name', 'Nameport')], { failPatch: true })
    const { panel, events } = await openTab('Site Settings')
    await events.click((await panel.findAllByRole('button', { name: 'Edit site_name' }))[0])
    const form = within(panel.getByRole('form', { name: 'Edit setting' }))
    expect(form.getByLabelText('Value')).toHaveValue('Nameport')
    await events.clear(form.getByLabelText('Value'))
    await events.type(form.getByLabelText('Value'), 'Nameport NZ')
    await events.click(form.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Nope')).toBeInTheDocument()
    expect(state.patches[0]).toMatchObject({ value: 'Nameport NZ' })
  })

  it('deletes after confirmation', async () => {
    const state = serveSettings([setting('site_name', 'Nameport')])
    const { panel, events } = await openTab('Site Settings')
    await events.click(await panel.findByRole('button', { name: 'Delete site_name' }))
    await events.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(state.list).toHaveLength(0))
    await waitFor(() => expect(panel.queryByText('site_name')).not.toBeInTheDocument())
  })

  it('Quick Setup adds the four missing branding settings, then says they exist', async () => {
    const state = serveSettings([setting('site_name', 'Mine')])
    const { panel, events } = await openTab('Site Settings')
    await events.click(await panel.findByRole('button', { name: 'Quick Setup' }))
    await waitFor(() => expect(state.posts).toHaveLength(3))
    expect(state.posts.map((p) => p.key).sort()).toEqual(['favicon_url', 'logo_url', 'primary_color'])
    expect(state.posts.every((p) => p.category === 'branding')).toBe(true)
    expect(await panel.findByText('primary_color')).toBeInTheDocument()
    await events.click(panel.getByRole('button', { name: 'Quick Setup' }))
    expect(await screen.findByText('Common settings are already configured')).toBeInTheDocument()
    expect(state.posts).toHaveLength(3)
  })

  it('Quick Setup reports a failure', async () => {
    serveSettings([], { failPosts: true })
    const { panel, events } = await openTab('Site Settings')
    await events.click(await panel.findByRole('button', { name: 'Quick Setup' }))
    expect(await screen.findByText('Failed to add some common settings')).toBeInTheDocument()
  })
})

function gatewaysOf(state: { list: SiteSetting[] }) {
  return JSON.parse(state.list.find((s) => s.key === 'payment_gateways')!.value)
}

describe('Payment Gateways tab', () => {
  it('adds a gateway inactive in test mode by POST when the setting is missing', async () => {
    const state = serveSettings([])
    const { panel, events } = await openTab('Payment Gateways')
    await events.click(await panel.findByRole('button', { name: 'Add Gateway' }))
    expect(await screen.findByText('Please select a payment gateway type')).toBeInTheDocument()

    await events.selectOptions(panel.getByLabelText('Add a gateway'), 'PayPal')
    await events.click(panel.getByRole('button', { name: 'Add Gateway' }))
    expect(await screen.findByText('Payment gateway added successfully')).toBeInTheDocument()
    expect(state.posts[0]).toMatchObject({ key: 'payment_gateways', category: 'payment', isPublic: false })
    const [paypal] = gatewaysOf(state)
    expect(paypal).toMatchObject({ id: 'paypal', active: false, testMode: true })
    expect(paypal.fields.map((f: { name: string }) => f.name)).toEqual([
      'client_id',
      'client_secret',
      'allow_guest_checkout',
    ])
    const list = within(await panel.findByRole('list', { name: 'Payment gateways' }))
    expect(list.getByText('Inactive')).toBeInTheDocument()
    expect(list.getByText('Test mode')).toBeInTheDocument()
  })

  it('refuses to enable an unconfigured gateway, configures it keeping the masked secret, and enables it', async () => {
    const stored = setting(
      'payment_gateways',
      JSON.stringify([
        {
          id: 'paypal',
          name: 'PayPal',
          description: 'PayPal checkout',
          active: false,
          testMode: true,
          displayOrder: 1,
          settings: { client_id: '', client_secret: '••••1234', allow_guest_checkout: false },
        },
      ]),
      { category: 'payment', isPublic: false },
    )
    const state = serveSettings([stored])
    // A server on which PayPal payments work (none does yet: see the next test).
    server.use(
      http.get('/api/wallet/deposit-options', () =>
        HttpResponse.json({
          success: true,
          data: {
            mode: 'demo',
            methods: ['credit_card', 'paypal'],
            instant: ['credit_card'],
            bankTransfer: null,
            configuredBy: 'Demo payments are server configuration.',
            availableGateways: ['bank_transfer', 'paypal'],
          },
        }),
      ),
    )
    const { panel, events } = await openTab('Payment Gateways')
    await events.click(await panel.findByRole('switch', { name: 'Enable PayPal' }))
    expect(await screen.findByText('Please fill in the following required fields: Client ID')).toBeInTheDocument()
    expect(state.patches).toHaveLength(0)

    const form = within(await panel.findByRole('form', { name: 'Configure PayPal' }))
    expect(form.getByText(/Stored secret ends in 1234/)).toBeInTheDocument()
    await events.type(form.getByLabelText('Client ID *'), 'client-42')
    await events.click(form.getByRole('button', { name: 'Save Configuration' }))
    await waitFor(() => expect(state.patches).toHaveLength(1))
    expect(gatewaysOf(state)[0].settings).toMatchObject({ client_secret: '••••1234', client_id: 'client-42' })

    await events.click(await panel.findByRole('switch', { name: 'Enable PayPal' }))
    expect(await screen.findByText('Payment Gateway Enabled')).toBeInTheDocument()
    expect(screen.getByText('PayPal is now enabled for customer payments.')).toBeInTheDocument()
    expect(gatewaysOf(state)[0].active).toBe(true)

    await events.click(await panel.findByRole('switch', { name: 'Enable PayPal' }))
    expect(await screen.findByText('Payment Gateway Disabled')).toBeInTheDocument()
    expect(screen.getByText('PayPal is now disabled for customer payments.')).toBeInTheDocument()
  })

  it('says a gateway the server cannot take is not available, and keeps it off', async () => {
    const stored = setting(
      'payment_gateways',
      JSON.stringify([
        {
          id: 'paypal',
          name: 'PayPal',
          description: 'PayPal checkout',
          active: false,
          testMode: true,
          displayOrder: 1,
          settings: { client_id: 'cid', client_secret: '••••1234' },
        },
      ]),
      { category: 'payment', isPublic: false },
    )
    const state = serveSettings([stored])
    const { panel } = await openTab('Payment Gateways')
    expect(await panel.findByText('Not available yet')).toBeInTheDocument()
    expect(panel.getByText(/Payments by PayPal are not available yet/)).toBeInTheDocument()
    await waitFor(() => expect(panel.getByRole('switch', { name: 'Enable PayPal' })).toBeDisabled())
    expect(state.patches).toHaveLength(0)
  })

  it('saves checkboxes, a select and test mode from the configuration, keeping what it does not show', async () => {
    const stored = setting(
      'payment_gateways',
      JSON.stringify([
        {
          id: 'paypal',
          name: 'PayPal',
          description: 'PayPal checkout',
          active: false,
          testMode: true,
          displayOrder: 1,
          settings: { client_id: 'client-1', client_secret: '••••1234', allow_guest_checkout: false, legacy: 'kept' },
        },
        {
          id: 'credit_card',
          name: 'Credit Card',
          description: 'Cards',
          active: false,
          testMode: true,
          displayOrder: 2,
          settings: { processor: 'Manual', instructions: '' },
        },
      ]),
      { category: 'payment', isPublic: false },
    )
    const state = serveSettings([stored])
    const { panel, events } = await openTab('Payment Gateways')
    const list = within(await panel.findByRole('list', { name: 'Payment gateways' }))
    await events.click(list.getAllByRole('button', { name: 'Configure' })[0])
    let form = within(await panel.findByRole('form', { name: 'Configure PayPal' }))
    expect(form.getByLabelText('Client ID *')).toHaveValue('client-1')
    expect(form.getByLabelText("Test mode (use the provider's sandbox)")).toBeChecked()
    await events.click(form.getByLabelText('Allow guest checkout'))
    await events.click(form.getByLabelText("Test mode (use the provider's sandbox)"))
    await events.click(form.getByRole('button', { name: 'Save Configuration' }))
    await waitFor(() => expect(state.patches).toHaveLength(1))
    expect(gatewaysOf(state)[0]).toMatchObject({
      testMode: false,
      settings: { client_id: 'client-1', client_secret: '••••1234', allow_guest_checkout: true, legacy: 'kept' },
    })
    expect(await screen.findByText('PayPal settings saved')).toBeInTheDocument()

    await events.click(list.getAllByRole('button', { name: 'Configure' })[1])
    form = within(await panel.findByRole('form', { name: 'Configure Credit Card' }))
    await events.selectOptions(form.getByLabelText('Processing *'), 'Terminal')
    await events.type(form.getByLabelText('Instructions'), 'Call us')
    await events.click(form.getByRole('button', { name: 'Save Configuration' }))
    await waitFor(() => expect(state.patches).toHaveLength(2))
    expect(gatewaysOf(state)[1].settings).toEqual({ processor: 'Terminal', instructions: 'Call us' })
    expect(gatewaysOf(state)[0].testMode).toBe(false)
  })

  it('says which mode payments run in and where it is configured, and offers no Stripe keys', async () => {
    serveSettings([])
    server.use(
      http.get('/api/wallet/deposit-options', () =>
        HttpResponse.json({
          success: true,
          data: {
            mode: 'stripe',
            methods: ['credit_card'],
            instant: [],
            bankTransfer: null,
            configuredBy: 'Stripe keys are server configuration: --stripe-secret-key (from the server).',
          },
        }),
      ),
    )
    const { panel } = await openTab('Payment Gateways')
    const mode = within(await panel.findByRole('region', { name: 'Payment mode' }))
    expect(await mode.findByText('Stripe')).toBeInTheDocument()
    expect(
      mode.getByText('Stripe keys are server configuration: --stripe-secret-key (from the server).'),
    ).toBeInTheDocument()
    const types = within(panel.getByLabelText('Add a gateway'))
      .getAllByRole('option')
      .map((o) => o.textContent)
    expect(types).toContain('PayPal')
    expect(types).not.toContain('Stripe')
  })

  it('removes a gateway after confirmation and reports save failures', async () => {
    const stored = setting(
      'payment_gateways',
      JSON.stringify([{ id: 'cryptocurrency', name: 'Cryptocurrency', active: false, testMode: true, settings: {} }]),
      { category: 'payment', isPublic: false },
    )
    const state = serveSettings([stored])
    const { panel, events } = await openTab('Payment Gateways')
    await events.click(await panel.findByRole('button', { name: 'Remove Cryptocurrency' }))
    await events.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Payment gateway removed successfully')).toBeInTheDocument()
    expect(gatewaysOf(state)).toEqual([])

    server.use(http.patch('/api/site-settings/:id', () => new HttpResponse(null, { status: 500 })))
    await events.selectOptions(panel.getByLabelText('Add a gateway'), 'PayPal')
    await events.click(panel.getByRole('button', { name: 'Add Gateway' }))
    expect(await screen.findByText('Failed to save payment gateways')).toBeInTheDocument()
  })

  it('treats an unparseable stored value as no gateways', async () => {
    serveSettings([setting('payment_gateways', 'not json', { category: 'payment', isPublic: false })])
    const { panel } = await openTab('Payment Gateways')
    expect(await panel.findByText('No payment gateways configured yet.')).toBeInTheDocument()
  })
})
