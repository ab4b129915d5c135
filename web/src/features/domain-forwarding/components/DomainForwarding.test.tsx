import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { DomainForward, DomainForwarding } from '@/lib/domainForwarding'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { ForwardPreview } from '../api/domainForwarding'

const acme = serverDomain({
  id: 7,
  name: 'acme',
  extension: '.inf.nz',
  isPremium: false,
  registeredAt: '2026-03-04T10:00:00Z',
  expiresAt: '2027-03-04T10:00:00Z',
  autoRenew: true,
  price: 8,
})

const apexForward: DomainForward = {
  id: 1,
  host: '@',
  name: 'acme.inf.nz',
  target: 'https://example.com/',
  status: 301,
  keepPath: true,
  keepQuery: false,
  certificate: { state: 'issued', notAfter: '2026-06-02T12:00:00Z' },
  createdAt: '2026-03-05T12:00:00Z',
  updatedAt: '2026-03-05T12:00:00Z',
}
const shop: DomainForward = {
  id: 2,
  host: 'shop',
  name: 'shop.acme.inf.nz',
  target: 'https://store.example.net/acme',
  status: 302,
  keepPath: false,
  keepQuery: true,
  certificate: { state: 'failed', error: 'urn:ietf:params:acme:error:rateLimited: too many certificates' },
  createdAt: '2026-03-06T12:00:00Z',
  updatedAt: '2026-03-06T12:00:00Z',
}

function forwardingOf(fields: Partial<DomainForwarding> = {}): DomainForwarding {
  return { forwards: [apexForward, shop], maxRules: 20, addresses: ['192.0.2.80'], ...fields }
}

const FORWARDING = '/api/domains/7/domain-forwarding'

/** A forward as the server answers a PUT: what was sent, a pending certificate. */
function forwardOf(host: string, body: Record<string, unknown>, id = 9): DomainForward {
  return {
    id,
    host,
    name: host === '@' ? 'acme.inf.nz' : `${host}.acme.inf.nz`,
    target: String(body.target),
    status: (body.status as DomainForward['status']) ?? 302,
    keepPath: Boolean(body.keepPath),
    keepQuery: Boolean(body.keepQuery),
    certificate: { state: 'pending' },
    createdAt: '2026-03-08T12:00:00Z',
    updatedAt: '2026-03-08T12:00:00Z',
  }
}

/**
 * Serves the domain and a forwarding that the preview, PUT and DELETE
 * handlers change; `replaces` are the records each host's preview names.
 * Returns the state to read and change, with every request the tab made.
 */
function serveForwarding(forwarding = forwardingOf(), replaces: Record<string, string[]> = {}) {
  const state = {
    forwarding,
    gets: 0,
    previews: [] as string[],
    puts: [] as Array<{ path: string; body: Record<string, unknown> }>,
    deletes: [] as string[],
  }
  server.use(
    http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
    http.get('/api/domains/7/dns', () => HttpResponse.json({ success: true, data: [] })),
    http.get(FORWARDING, () => {
      state.gets++
      return HttpResponse.json({ success: true, data: state.forwarding })
    }),
    http.get(`${FORWARDING}/:host/preview`, ({ params }) => {
      const host = String(params.host)
      state.previews.push(host)
      const preview: ForwardPreview = {
        host,
        name: host === '@' ? 'acme.inf.nz' : `${host}.acme.inf.nz`,
        adds: ['A 192.0.2.80'],
        replaces: replaces[host] ?? [],
      }
      return HttpResponse.json({ success: true, data: preview })
    }),
    http.put(`${FORWARDING}/:host`, async ({ params, request }) => {
      const host = String(params.host)
      const body = (await request.json()) as Record<string, unknown>
      state.puts.push({ path: new URL(request.url).pathname, body })
      const forward = forwardOf(host, body)
      state.forwarding = {
        ...state.forwarding,
        forwards: [...state.forwarding.forwards.filter((f) => f.host !== host), forward],
      }
      return HttpResponse.json({ success: true, data: forward })
    }),
    http.delete(`${FORWARDING}/:host`, ({ params }) => {
      const host = String(params.host)
      state.deletes.push(host)
      state.forwarding = { ...state.forwarding, forwards: state.forwarding.forwards.filter((f) => f.host !== host) }
      return HttpResponse.json({ success: true })
    }),
  )
  return state
}

async function openTab() {
  const view = renderApp('/domain-management/7?tab=domain-forwarding', { user: endUser })
  const panel = within(await screen.findByRole('tabpanel', { name: 'Domain Forwarding' }))
  return { ...view, panel }
}

function rowOf(table: ReturnType<typeof within>, text: string): HTMLElement {
  return table.getAllByRole('row').find((row: HTMLElement) => row.textContent?.includes(text))!
}

async function openAddDialog(panel: ReturnType<typeof within>, events: ReturnType<typeof renderApp>['events']) {
  await events.click(await panel.findByRole('button', { name: 'Add forward' }))
  return within(await screen.findByRole('dialog', { name: 'Add forward' }))
}

describe('Domain Forwarding tab', () => {
  it('sits after Email Forwarding, and choosing it puts it in the address', async () => {
    const state = serveForwarding()
    const { events, router } = renderApp('/domain-management/7', { user: endUser })
    await screen.findByRole('tabpanel', { name: 'DNS Management' })
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'DNS Management',
      'Email Forwarding',
      'Domain Forwarding',
      'Domain Settings',
    ])
    expect(state.gets).toBe(0)
    await events.click(screen.getByRole('tab', { name: 'Domain Forwarding' }))
    const panel = within(await screen.findByRole('tabpanel', { name: 'Domain Forwarding' }))
    expect(await panel.findByRole('table', { name: 'Domain forwards' })).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ tab: 'domain-forwarding' })
  })

  it('shows a spinner while the forwards load', async () => {
    server.use(
      http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
      http.get(FORWARDING, () => new Promise(() => {})),
    )
    const { panel } = await openTab()
    expect(panel.getByRole('status', { name: 'Loading' })).toBeInTheDocument()
    expect(panel.getByText('Loading domain forwarding...')).toBeInTheDocument()
  })

  it("says so in the server's words when forwarding is not set up on the server", async () => {
    serveForwarding()
    server.use(
      http.get(FORWARDING, () =>
        HttpResponse.json(
          { success: false, code: 'unavailable', error: 'Domain forwarding is not set up on this server' },
          { status: 503 },
        ),
      ),
    )
    const { panel } = await openTab()
    expect(await panel.findByText('Domain forwarding is not set up on this server')).toBeInTheDocument()
    expect(panel.queryByRole('button', { name: 'Add forward' })).not.toBeInTheDocument()
    expect(panel.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument()
  })

  it('says when the forwards cannot be loaded, and Retry loads them again', async () => {
    const state = serveForwarding()
    let failing = true
    server.use(
      http.get(FORWARDING, () => {
        if (failing) return HttpResponse.json({ success: false, error: 'boom' }, { status: 500 })
        state.gets++
        return HttpResponse.json({ success: true, data: state.forwarding })
      }),
    )
    const { panel, events } = await openTab()
    expect(await panel.findByText('Failed to load domain forwarding. Please try again.')).toBeInTheDocument()
    failing = false
    await events.click(panel.getByRole('button', { name: 'Retry' }))
    expect(await panel.findByRole('table', { name: 'Domain forwards' })).toBeInTheDocument()
    expect(state.gets).toBe(1)
  })

  it('lists each host name with its target, status, options and certificate, the count and the addresses', async () => {
    serveForwarding(
      forwardingOf({
        forwards: [apexForward, shop, { ...forwardOf('www', { target: 'https://example.org/' }), id: 3 }],
      }),
    )
    const { panel } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Domain forwards' }))
    expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Host name',
      'Forwards to',
      'Certificate',
      'Actions',
    ])

    const apexRow = within(rowOf(table, 'https://example.com/'))
    expect(apexRow.getByRole('rowheader')).toHaveTextContent('acme.inf.nz')
    expect(apexRow.getByText('301 Permanent')).toBeInTheDocument()
    expect(apexRow.getByText('Keeps path')).toBeInTheDocument()
    expect(apexRow.queryByText('Keeps query')).not.toBeInTheDocument()
    expect(apexRow.getByText('Issued until Jun 2, 2026')).toBeInTheDocument()

    const shopRow = within(rowOf(table, 'shop.acme.inf.nz'))
    expect(shopRow.getByText('https://store.example.net/acme')).toBeInTheDocument()
    expect(shopRow.getByText('302 Temporary')).toBeInTheDocument()
    expect(shopRow.getByText('Keeps query')).toBeInTheDocument()
    expect(
      shopRow.getByText('Failed: urn:ietf:params:acme:error:rateLimited: too many certificates'),
    ).toBeInTheDocument()

    expect(within(rowOf(table, 'www.acme.inf.nz')).getByText('Pending')).toBeInTheDocument()
    expect(panel.getByText('3 of 20 forwards')).toBeInTheDocument()
    expect(panel.getByText('192.0.2.80')).toBeInTheDocument()
    // The phone list carries the same forwards.
    expect(within(panel.getByRole('list', { name: 'Domain forwards' })).getAllByRole('listitem')).toHaveLength(3)
  })

  it('says so when there are no forwards yet', async () => {
    serveForwarding(forwardingOf({ forwards: [] }))
    const { panel } = await openTab()
    expect(await panel.findByText('No forwards yet')).toBeInTheDocument()
    expect(panel.getByText('0 of 20 forwards')).toBeInTheDocument()
    expect(panel.queryByRole('table', { name: 'Domain forwards' })).not.toBeInTheDocument()
  })

  it('offers no new forward once the domain has as many as it may have', async () => {
    serveForwarding(forwardingOf({ maxRules: 2 }))
    const { panel } = await openTab()
    expect(await panel.findByRole('button', { name: 'Add forward' })).toBeDisabled()
  })

  it('adds a forward after previewing its host, says so, and reloads the forwards and the DNS records', async () => {
    const state = serveForwarding(forwardingOf({ forwards: [] }))
    const { panel, events, queryClient } = await openTab()
    queryClient.setQueryData(['/api/domains/7/dns'], [])
    const dialog = await openAddDialog(panel, events)
    expect(dialog.getByText('.acme.inf.nz')).toBeInTheDocument()
    expect(dialog.getByText(/Its address records will point at 192\.0\.2\.80\./)).toBeInTheDocument()
    expect(dialog.getByLabelText('Redirect type')).toHaveValue('302')
    expect(
      within(dialog.getByLabelText('Redirect type'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['301 Permanent', '302 Temporary (default)', '307 Temporary, same method', '308 Permanent, same method'])

    await events.type(dialog.getByLabelText('Host name'), ' www ')
    await events.type(dialog.getByLabelText('Forward to'), ' https://example.com/ ')
    await events.selectOptions(dialog.getByLabelText('Redirect type'), '301')
    await events.click(dialog.getByRole('checkbox', { name: 'Keep the path' }))
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))

    expect(await screen.findByText('Forward added')).toBeInTheDocument()
    expect(screen.getByText('www.acme.inf.nz now forwards to https://example.com/.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(state.previews).toEqual(['www'])
    expect(state.puts).toEqual([
      {
        path: '/api/domains/7/domain-forwarding/www',
        body: { target: 'https://example.com/', status: 301, keepPath: true, keepQuery: false },
      },
    ])
    const table = within(await panel.findByRole('table', { name: 'Domain forwards' }))
    expect(within(rowOf(table, 'www.acme.inf.nz')).getByText('Pending')).toBeInTheDocument()
    expect(panel.getByText('1 of 20 forwards')).toBeInTheDocument()
    expect(queryClient.getQueryState(['/api/domains/7/dns'])?.isInvalidated).toBe(true)
  })

  it("names the host's own records and replaces them only once confirmed", async () => {
    const state = serveForwarding(forwardingOf({ forwards: [] }), { blog: ['A 203.0.113.7', 'AAAA 2001:db8::7'] })
    const { panel, events } = await openTab()
    const dialog = await openAddDialog(panel, events)
    await events.type(dialog.getByLabelText('Host name'), 'blog')
    await events.type(dialog.getByLabelText('Forward to'), 'https://example.com/')
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))

    const notice = within(await dialog.findByRole('alert'))
    expect(notice.getByText('Forwarding blog.acme.inf.nz replaces its records:')).toBeInTheDocument()
    expect(
      within(notice.getByRole('list', { name: 'Records to replace' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['A 203.0.113.7', 'AAAA 2001:db8::7'])
    expect(notice.getByText('A 192.0.2.80')).toBeInTheDocument()
    expect(state.puts).toEqual([])

    // A change asks again: what was confirmed was for the values as they were.
    await events.click(dialog.getByRole('checkbox', { name: 'Keep the query string' }))
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))
    await dialog.findByRole('alert')
    expect(state.previews).toEqual(['blog', 'blog'])

    await events.click(dialog.getByRole('button', { name: 'Replace records and save' }))
    expect(await screen.findByText('Forward added')).toBeInTheDocument()
    expect(state.previews).toHaveLength(2)
    expect(state.puts).toEqual([
      {
        path: '/api/domains/7/domain-forwarding/blog',
        body: {
          target: 'https://example.com/',
          status: 302,
          keepPath: false,
          keepQuery: true,
          replaceRecords: true,
        },
      },
    ])
  })

  it('forwards the domain itself as @', async () => {
    const state = serveForwarding(forwardingOf({ forwards: [] }))
    const { panel, events } = await openTab()
    const dialog = await openAddDialog(panel, events)
    await events.type(dialog.getByLabelText('Host name'), '@')
    await events.type(dialog.getByLabelText('Forward to'), 'https://example.com/')
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))
    expect(await screen.findByText('acme.inf.nz now forwards to https://example.com/.')).toBeInTheDocument()
    expect(state.previews).toEqual(['@'])
    expect(state.puts.map((p) => p.path)).toEqual(['/api/domains/7/domain-forwarding/%40'])
  })

  it('asks for a host name and a target before sending anything', async () => {
    const state = serveForwarding()
    const { panel, events } = await openTab()
    const dialog = await openAddDialog(panel, events)
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))
    expect(
      await dialog.findByText('Enter a host name: @ for the domain itself, or a name such as www'),
    ).toBeInTheDocument()
    expect(dialog.getByText('Enter the URL to forward to, for example https://example.com')).toBeInTheDocument()
    expect(state.previews).toEqual([])
    expect(state.puts).toEqual([])
  })

  it('leaves the target to the server and shows its refusal as it comes, keeping what was typed', async () => {
    const state = serveForwarding()
    const message = '"http://127.0.0.1/" cannot be a forwarding target: it is an IP address; use a public host name'
    server.use(
      http.put(`${FORWARDING}/:host`, async ({ request }) => {
        state.puts.push({
          path: new URL(request.url).pathname,
          body: (await request.json()) as Record<string, unknown>,
        })
        return HttpResponse.json({ success: false, code: 'invalid', error: message }, { status: 422 })
      }),
    )
    const { panel, events } = await openTab()
    const dialog = await openAddDialog(panel, events)
    await events.type(dialog.getByLabelText('Host name'), 'www')
    await events.type(dialog.getByLabelText('Forward to'), 'http://127.0.0.1/')
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(message)
    expect(dialog.getByLabelText('Forward to')).toHaveValue('http://127.0.0.1/')
    expect(state.puts).toHaveLength(1)
    expect(screen.queryByText('Forward added')).not.toBeInTheDocument()
  })

  it("shows the preview's refusal of a delegated name and sends nothing", async () => {
    const state = serveForwarding()
    const message =
      'This name is delegated to other name servers (NS records at lab): set up forwarding where its DNS is served, or remove the delegation first'
    server.use(
      http.get(`${FORWARDING}/:host/preview`, () =>
        HttpResponse.json({ success: false, code: 'conflict', error: message }, { status: 409 }),
      ),
    )
    const { panel, events } = await openTab()
    const dialog = await openAddDialog(panel, events)
    await events.type(dialog.getByLabelText('Host name'), 'lab')
    await events.type(dialog.getByLabelText('Forward to'), 'https://example.com/')
    await events.click(dialog.getByRole('button', { name: 'Add forward' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(message)
    expect(state.puts).toEqual([])
  })

  it('edits a forward in a dialog filled in with it; its host stays', async () => {
    const state = serveForwarding()
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Domain forwards' }))
    await events.click(table.getByRole('button', { name: 'Edit forward shop.acme.inf.nz' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit the forward of shop.acme.inf.nz' }))
    expect(dialog.queryByLabelText('Host name')).not.toBeInTheDocument()
    expect(dialog.getByLabelText('Forward to')).toHaveValue('https://store.example.net/acme')
    expect(dialog.getByLabelText('Redirect type')).toHaveValue('302')
    expect(dialog.getByRole('checkbox', { name: 'Keep the path' })).not.toBeChecked()
    expect(dialog.getByRole('checkbox', { name: 'Keep the query string' })).toBeChecked()

    await events.clear(dialog.getByLabelText('Forward to'))
    await events.type(dialog.getByLabelText('Forward to'), 'https://shop.example.org/')
    await events.selectOptions(dialog.getByLabelText('Redirect type'), '308')
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByText('Forward saved')).toBeInTheDocument()
    expect(state.previews).toEqual(['shop'])
    expect(state.puts).toEqual([
      {
        path: '/api/domains/7/domain-forwarding/shop',
        body: { target: 'https://shop.example.org/', status: 308, keepPath: false, keepQuery: true },
      },
    ])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(within(rowOf(table, 'shop.acme.inf.nz')).getByText('308 Permanent')).toBeInTheDocument()
  })

  it('deletes a forward after asking, and not when cancelled', async () => {
    const state = serveForwarding()
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Domain forwards' }))
    const deleteShop = table.getByRole('button', { name: 'Delete forward shop.acme.inf.nz' })

    await events.click(deleteShop)
    let dialog = within(await screen.findByRole('dialog', { name: 'Stop forwarding shop.acme.inf.nz?' }))
    expect(dialog.getByText(/Visitors of shop\.acme\.inf\.nz will no longer be sent to/)).toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(state.deletes).toEqual([])

    await events.click(deleteShop)
    dialog = within(await screen.findByRole('dialog', { name: 'Stop forwarding shop.acme.inf.nz?' }))
    await events.click(dialog.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Forward deleted')).toBeInTheDocument()
    await waitFor(() => expect(table.queryByText('shop.acme.inf.nz')).not.toBeInTheDocument())
    expect(state.deletes).toEqual(['shop'])
    expect(panel.getByText('1 of 20 forwards')).toBeInTheDocument()
  })
})
