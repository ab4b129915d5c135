import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DnsRecord } from '@/lib/dns'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, rules, server } from '@/test/server'

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

const apexA: DnsRecord = { id: 1, type: 'A', name: '@', content: '192.0.2.10', ttl: 3600, priority: null }
const mx: DnsRecord = { id: 2, type: 'MX', name: '@', content: 'mail.example.com', ttl: 3600, priority: 10 }
const srv: DnsRecord = {
  id: 3,
  type: 'SRV',
  name: '_sip._tcp',
  content: '5 5060 sip.example.com',
  ttl: 600,
  priority: 20,
}
const www: DnsRecord = { id: 4, type: 'CNAME', name: 'www', content: 'acme.inf.nz', ttl: 3600, priority: null }

const DNS = '/api/domains/7/dns'

/** Serves the domain and a mutable record list; returns the list to change it. */
function serveDomain(records: DnsRecord[] = [apexA, mx, srv, www]) {
  const state = { records: [...records], gets: 0 }
  server.use(
    http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
    http.get(DNS, () => {
      state.gets++
      return HttpResponse.json({ success: true, data: state.records })
    }),
  )
  return state
}

async function openPage() {
  const view = renderApp('/domain-management/7', { user: endUser })
  const panel = within(await screen.findByRole('tabpanel', { name: 'DNS Management' }))
  return { ...view, panel }
}

/** The wide-screen table (jsdom applies no CSS, so the phone list is there too). */
async function recordTable() {
  return within(await screen.findByRole('table', { name: 'DNS records' }))
}

function rowOf(table: ReturnType<typeof within>, text: string): HTMLElement {
  return table.getAllByRole('row').find((row: HTMLElement) => row.textContent?.includes(text))!
}

async function openAddDialog(events: ReturnType<typeof renderApp>['events'], panel: ReturnType<typeof within>) {
  await events.click(panel.getAllByRole('button', { name: 'Add Record' })[0])
  return within(await screen.findByRole('dialog', { name: 'Add DNS record' }))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('DNS Management tab', () => {
  it('shows a spinner while the records load', async () => {
    server.use(
      http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
      http.get(DNS, () => new Promise(() => {})),
    )
    const { panel } = await openPage()
    expect(panel.getByRole('status', { name: 'Loading' })).toBeInTheDocument()
    expect(panel.getByText('Loading DNS records...')).toBeInTheDocument()
  })

  it('lists the records with MX and SRV priorities before the content, and the note on propagation', async () => {
    serveDomain()
    const { panel } = await openPage()
    const table = await recordTable()
    expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Type',
      'Name',
      'Content',
      'TTL',
      'Actions',
    ])
    expect(rowOf(table, '192.0.2.10')).toHaveTextContent(/A@acme\.inf\.nz192\.0\.2\.103600/)
    expect(rowOf(table, 'mail.example.com')).toHaveTextContent('10 mail.example.com')
    expect(rowOf(table, 'sip.example.com')).toHaveTextContent('20 5 5060 sip.example.com')
    expect(rowOf(table, 'www.acme.inf.nz')).toHaveTextContent('CNAME')
    // The phone list carries the same records.
    expect(within(panel.getByRole('list', { name: 'DNS records' })).getAllByRole('listitem')).toHaveLength(4)
    expect(panel.getByText(/Changes are live on Nameport's DNS servers within seconds/)).toBeInTheDocument()
    expect(panel.getByRole('button', { name: 'Import zone file' })).toBeInTheDocument()
    expect(panel.getByRole('button', { name: 'Export zone file' })).toBeInTheDocument()
  })

  it("says 'Failed to load DNS records. Please try again.' and Retry reloads the page", async () => {
    server.use(
      http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
      http.get(DNS, () => HttpResponse.json({ success: false, error: 'boom' }, { status: 500 })),
    )
    const reload = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload })
    const { panel, events } = await openPage()
    expect(await panel.findByText('Failed to load DNS records. Please try again.')).toBeInTheDocument()
    await events.click(panel.getByRole('button', { name: 'Retry' }))
    expect(reload).toHaveBeenCalledOnce()
    expect(panel.queryByRole('button', { name: 'Add Record' })).not.toBeInTheDocument()
  })

  it("shows 'No DNS records found' with an Add Record button", async () => {
    serveDomain([])
    const { panel, events } = await openPage()
    expect(await panel.findByText('No DNS records found')).toBeInTheDocument()
    const buttons = panel.getAllByRole('button', { name: 'Add Record' })
    expect(buttons).toHaveLength(1)
    await events.click(buttons[0])
    expect(await screen.findByRole('dialog', { name: 'Add DNS record' })).toBeInTheDocument()
  })

  it('does not load the records on the settings tab', async () => {
    const state = serveDomain()
    renderApp('/domain-management/7?tab=settings', { user: endUser })
    await screen.findByRole('tabpanel', { name: 'Domain Settings' })
    expect(state.gets).toBe(0)
  })

  it('adds an A record with the defaults, says so and reloads the list', async () => {
    const state = serveDomain([])
    const bodies: unknown[] = []
    server.use(
      http.post(DNS, async ({ request }) => {
        const body = (await request.json()) as Omit<DnsRecord, 'id' | 'priority'> & { priority?: number }
        bodies.push(body)
        const record = { id: 9, priority: null, ...body }
        state.records.push(record)
        return HttpResponse.json({ success: true, data: record }, { status: 201 })
      }),
    )
    const { panel, events } = await openPage()
    await panel.findByText('No DNS records found')
    const dialog = await openAddDialog(events, panel)
    expect(dialog.getByLabelText('Type')).toHaveValue('A')
    expect(dialog.getByLabelText('TTL (seconds)')).toHaveValue(3600)
    expect(dialog.getByLabelText('Name')).toHaveAttribute('placeholder', '@ or www')
    expect(dialog.getByText(/Relative to acme\.inf\.nz/)).toHaveTextContent('@ for acme.inf.nz itself')
    expect(dialog.getByLabelText('Content')).toHaveAttribute('placeholder', '192.0.2.1')
    expect(dialog.queryByLabelText('Priority')).not.toBeInTheDocument()

    await events.type(dialog.getByLabelText('Name'), ' @ ')
    await events.type(dialog.getByLabelText('Content'), '192.0.2.10')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))

    expect(await screen.findByText('DNS record added')).toBeInTheDocument()
    expect(screen.getByText('A record for acme.inf.nz.')).toBeInTheDocument()
    expect(bodies).toEqual([{ type: 'A', name: '@', content: '192.0.2.10', ttl: 3600 }])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(rowOf(await recordTable(), '192.0.2.10')).toBeInTheDocument()
  })

  it('shows the priority field only for MX and sends it only then', async () => {
    serveDomain()
    const bodies: unknown[] = []
    server.use(
      http.post(DNS, async ({ request }) => {
        const body = (await request.json()) as Omit<DnsRecord, 'id' | 'priority'> & { priority?: number }
        bodies.push(body)
        return HttpResponse.json({ success: true, data: { id: 10, priority: null, ...body } }, { status: 201 })
      }),
    )
    const { panel, events } = await openPage()
    await recordTable()
    const dialog = await openAddDialog(events, panel)
    const type = dialog.getByLabelText('Type')
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'])
    for (const other of ['AAAA', 'CNAME', 'TXT', 'NS', 'SRV', 'CAA']) {
      await events.selectOptions(type, other)
      expect(dialog.queryByLabelText('Priority')).not.toBeInTheDocument()
    }
    await events.selectOptions(type, 'SRV')
    expect(dialog.getByLabelText('Content')).toHaveAttribute('placeholder', '10 5 5060 sip.example.com')
    await events.selectOptions(type, 'CAA')
    expect(dialog.getByLabelText('Content')).toHaveAttribute('placeholder', '0 issue "letsencrypt.org"')

    await events.selectOptions(type, 'MX')
    const priority = dialog.getByLabelText('Priority')
    expect(priority).toHaveValue(10)
    expect(dialog.getByLabelText('Content')).toHaveAttribute('placeholder', 'mail.example.com')
    await events.clear(priority)
    await events.type(priority, '20')
    await events.type(dialog.getByLabelText('Name'), '@')
    await events.type(dialog.getByLabelText('Content'), 'mx2.example.com')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await screen.findByText('DNS record added')).toBeInTheDocument()
    expect(bodies).toEqual([{ type: 'MX', name: '@', content: 'mx2.example.com', ttl: 3600, priority: 20 }])
  })

  it("validates on the client with the spec's messages and sends nothing", async () => {
    serveDomain([])
    let posts = 0
    server.use(
      http.post(DNS, () => {
        posts++
        return HttpResponse.json({ success: false }, { status: 500 })
      }),
    )
    const { panel, events } = await openPage()
    await panel.findByText('No DNS records found')
    const dialog = await openAddDialog(events, panel)
    const ttl = dialog.getByLabelText('TTL (seconds)')
    await events.clear(ttl)
    await events.type(ttl, '60')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await dialog.findByText('Record name is required')).toBeInTheDocument()
    expect(dialog.getByText('Record content is required')).toBeInTheDocument()
    expect(dialog.getByText('TTL must be at least 300 seconds')).toBeInTheDocument()
    expect(dialog.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')

    await events.clear(ttl)
    await events.type(ttl, '1e3')
    await events.type(dialog.getByLabelText('Name'), '   ')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await dialog.findByText('TTL must be a whole number of seconds')).toBeInTheDocument()
    expect(dialog.getByText('Record name is required')).toBeInTheDocument()

    await events.selectOptions(dialog.getByLabelText('Type'), 'MX')
    await events.clear(dialog.getByLabelText('Priority'))
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await dialog.findByText('Priority is required for MX records')).toBeInTheDocument()
    expect(posts).toBe(0)
  })

  it("shows the server's refusal in a 'Failed to create DNS record' toast and keeps the dialog", async () => {
    serveDomain([])
    server.use(
      http.post(DNS, () =>
        HttpResponse.json(
          { success: false, error: 'A record content must be an IPv4 address', field: 'content' },
          { status: 422 },
        ),
      ),
    )
    const { panel, events } = await openPage()
    await panel.findByText('No DNS records found')
    const dialog = await openAddDialog(events, panel)
    await events.type(dialog.getByLabelText('Name'), 'www')
    await events.type(dialog.getByLabelText('Content'), 'not-an-ip')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await screen.findByText('Failed to create DNS record')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Add DNS record' })).toBeInTheDocument()
    // The message is also beside the field it is about, which has the focus.
    const content = dialog.getByLabelText('Content')
    expect(content).toHaveValue('not-an-ip')
    expect(content).toHaveAccessibleDescription(expect.stringContaining('A record content must be an IPv4 address'))
    expect(content).toHaveAttribute('aria-invalid', 'true')
    expect(content).toHaveFocus()
    expect(screen.getAllByText('A record content must be an IPv4 address')).toHaveLength(2)
  })

  it("falls back to 'An unexpected error occurred' when the failure has no message", async () => {
    serveDomain([])
    server.use(http.post(DNS, () => HttpResponse.error()))
    const { panel, events } = await openPage()
    await panel.findByText('No DNS records found')
    const dialog = await openAddDialog(events, panel)
    await events.type(dialog.getByLabelText('Name'), 'www')
    await events.type(dialog.getByLabelText('Content'), '192.0.2.1')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))
    expect(await screen.findByText('Failed to create DNS record')).toBeInTheDocument()
    expect(screen.getByText('An unexpected error occurred')).toBeInTheDocument()
  })

  it('edits a record with PUT, prefilled; an SRV keeps its priority at the front of the content', async () => {
    const state = serveDomain()
    const puts: Array<{ id: string; body: unknown }> = []
    server.use(
      http.put(`${DNS}/:recordId`, async ({ request, params }) => {
        const body = (await request.json()) as Omit<DnsRecord, 'id'>
        puts.push({ id: String(params.recordId), body })
        const updated = { ...state.records.find((r) => r.id === Number(params.recordId))!, ...body }
        state.records = state.records.map((r) => (r.id === updated.id ? updated : r))
        return HttpResponse.json({ success: true, data: updated })
      }),
    )
    const { events } = await openPage()
    const table = await recordTable()

    await events.click(within(rowOf(table, '192.0.2.10')).getByRole('button', { name: 'Edit A record @' }))
    let dialog = within(await screen.findByRole('dialog', { name: 'Edit DNS record' }))
    expect(dialog.getByLabelText('Type')).toHaveValue('A')
    expect(dialog.getByLabelText('Name')).toHaveValue('@')
    expect(dialog.getByLabelText('Content')).toHaveValue('192.0.2.10')
    const ttl = dialog.getByLabelText('TTL (seconds)')
    await events.clear(ttl)
    await events.type(ttl, '600')
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('DNS record updated')).toBeInTheDocument()
    await waitFor(() => expect(rowOf(table, '192.0.2.10')).toHaveTextContent(/192\.0\.2\.10600/))

    await events.click(
      within(rowOf(table, 'sip.example.com')).getByRole('button', { name: 'Edit SRV record _sip._tcp' }),
    )
    dialog = within(await screen.findByRole('dialog', { name: 'Edit DNS record' }))
    expect(dialog.getByLabelText('Content')).toHaveValue('20 5 5060 sip.example.com')
    expect(dialog.queryByLabelText('Priority')).not.toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(puts).toHaveLength(2))

    await events.click(within(rowOf(table, 'mail.example.com')).getByRole('button', { name: 'Edit MX record @' }))
    dialog = within(await screen.findByRole('dialog', { name: 'Edit DNS record' }))
    expect(dialog.getByLabelText('Priority')).toHaveValue(10)
    expect(puts).toEqual([
      { id: '1', body: { type: 'A', name: '@', content: '192.0.2.10', ttl: 600 } },
      { id: '3', body: { type: 'SRV', name: '_sip._tcp', content: '20 5 5060 sip.example.com', ttl: 600 } },
    ])
  })

  it("shows 'Failed to update DNS record' with the server's message", async () => {
    serveDomain()
    server.use(
      http.put(`${DNS}/1`, () =>
        HttpResponse.json({ success: false, error: 'A CNAME cannot be at the domain apex (@)' }, { status: 422 }),
      ),
    )
    const { events } = await openPage()
    const table = await recordTable()
    await events.click(within(rowOf(table, '192.0.2.10')).getByRole('button', { name: 'Edit A record @' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit DNS record' }))
    await events.selectOptions(dialog.getByLabelText('Type'), 'CNAME')
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Failed to update DNS record')).toBeInTheDocument()
    expect(screen.getByText('A CNAME cannot be at the domain apex (@)')).toBeInTheDocument()
  })

  it("shows the server's one-TTL-per-set refusal and aligns the whole set when asked", async () => {
    const wwwA: DnsRecord = { id: 5, type: 'A', name: 'www', content: '192.0.2.1', ttl: 300, priority: null }
    const state = serveDomain([wwwA])
    const bodies: unknown[] = []
    server.use(
      http.post(DNS, async ({ request }) => {
        const body = (await request.json()) as Omit<DnsRecord, 'id' | 'priority'> & { alignTtl?: boolean }
        bodies.push(body)
        if (!body.alignTtl && body.ttl !== 300) {
          return HttpResponse.json(
            {
              success: false,
              code: 'invalid',
              setTtl: 300,
              error: `Records of www A share one TTL (300 seconds): set 300, or change the TTL of the whole set to ${body.ttl}`,
            },
            { status: 422 },
          )
        }
        const record = {
          id: 11,
          type: body.type,
          name: body.name,
          content: body.content,
          ttl: body.ttl,
          priority: null,
        }
        state.records = [...state.records.map((r) => ({ ...r, ttl: body.ttl })), record]
        return HttpResponse.json({ success: true, data: record }, { status: 201 })
      }),
    )
    const { panel, events } = await openPage()
    await recordTable()
    const dialog = await openAddDialog(events, panel)
    await events.type(dialog.getByLabelText('Name'), 'www')
    await events.type(dialog.getByLabelText('Content'), '192.0.2.2')
    await events.click(dialog.getByRole('button', { name: 'Save record' }))

    const alert = within(await dialog.findByRole('alert'))
    expect(
      alert.getByText(
        'Records of www A share one TTL (300 seconds): set 300, or change the TTL of the whole set to 3600',
      ),
    ).toBeInTheDocument()
    expect(screen.queryByText('Failed to create DNS record')).not.toBeInTheDocument()
    expect(alert.getByRole('button', { name: 'Use 300' })).toBeInTheDocument()
    await events.click(alert.getByRole('button', { name: 'Align all to 3600' }))

    expect(await screen.findByText('DNS record added')).toBeInTheDocument()
    expect(
      screen.getByText(
        'A record for www.acme.inf.nz. Every A record of www.acme.inf.nz now has a TTL of 3600 seconds.',
      ),
    ).toBeInTheDocument()
    expect(bodies).toEqual([
      { type: 'A', name: 'www', content: '192.0.2.2', ttl: 3600 },
      { type: 'A', name: 'www', content: '192.0.2.2', ttl: 3600, alignTtl: true },
    ])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    const table = await recordTable()
    await waitFor(() => expect(rowOf(table, '192.0.2.1')).toHaveTextContent(/192\.0\.2\.13600/))
  })

  it("takes the set's TTL when asked, and a changed TTL drops the offer", async () => {
    const wwwA: DnsRecord = { id: 5, type: 'A', name: 'www', content: '192.0.2.1', ttl: 300, priority: null }
    const wwwB: DnsRecord = { id: 6, type: 'A', name: 'www', content: '192.0.2.2', ttl: 300, priority: null }
    const state = serveDomain([wwwA, wwwB])
    const puts: unknown[] = []
    server.use(
      http.put(`${DNS}/:recordId`, async ({ request, params }) => {
        const body = (await request.json()) as Omit<DnsRecord, 'id' | 'priority'> & { alignTtl?: boolean }
        puts.push(body)
        if (!body.alignTtl && body.ttl !== 300) {
          return HttpResponse.json(
            {
              success: false,
              code: 'invalid',
              setTtl: 300,
              error: `Records of www A share one TTL (300 seconds): set 300, or change the TTL of the whole set to ${body.ttl}`,
            },
            { status: 422 },
          )
        }
        const updated = { ...state.records.find((r) => r.id === Number(params.recordId))!, ...body }
        state.records = state.records.map((r) => (r.id === updated.id ? updated : r))
        return HttpResponse.json({ success: true, data: updated })
      }),
    )
    const { events } = await openPage()
    const table = await recordTable()
    await events.click(within(rowOf(table, '192.0.2.2')).getByRole('button', { name: 'Edit A record www' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit DNS record' }))
    const ttl = dialog.getByLabelText('TTL (seconds)')
    await events.clear(ttl)
    await events.type(ttl, '900')
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('Records of www A share one TTL (300 seconds)')

    // Typing another TTL drops the offer, which was about 900.
    await events.type(ttl, '0')
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    const alert = within(await dialog.findByRole('alert'))
    expect(alert.getByRole('button', { name: 'Align all to 9000' })).toBeInTheDocument()
    await events.click(alert.getByRole('button', { name: 'Use 300' }))
    expect(ttl).toHaveValue(300)
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('DNS record updated')).toBeInTheDocument()
    expect(puts).toEqual([
      { type: 'A', name: 'www', content: '192.0.2.2', ttl: 900 },
      { type: 'A', name: 'www', content: '192.0.2.2', ttl: 9000 },
      { type: 'A', name: 'www', content: '192.0.2.2', ttl: 300 },
    ])
  })

  it('deletes after the browser confirmation, and sends nothing when it is cancelled', async () => {
    const state = serveDomain()
    const deleted: string[] = []
    server.use(
      http.delete(`${DNS}/:recordId`, ({ params }) => {
        deleted.push(String(params.recordId))
        state.records = state.records.filter((r) => r.id !== Number(params.recordId))
        return HttpResponse.json({ success: true })
      }),
    )
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true)
    const { events } = await openPage()
    const table = await recordTable()
    const deleteMx = () => within(rowOf(table, 'mail.example.com')).getByRole('button', { name: 'Delete MX record @' })

    await events.click(deleteMx())
    expect(confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this DNS record?')
    expect(deleted).toEqual([])
    expect(screen.queryByText('DNS record deleted')).not.toBeInTheDocument()

    await events.click(deleteMx())
    expect(await screen.findByText('DNS record deleted')).toBeInTheDocument()
    expect(deleted).toEqual(['2'])
    await waitFor(() => expect(table.queryByText('10 mail.example.com')).not.toBeInTheDocument())
    expect(confirm).toHaveBeenCalledTimes(2)
  })

  it("shows 'Failed to delete DNS record' with the server's message", async () => {
    serveDomain()
    server.use(
      http.delete(`${DNS}/2`, () => HttpResponse.json({ success: false, error: 'Record not found' }, { status: 404 })),
    )
    vi.spyOn(window, 'confirm').mockReturnValue(true)
    const { events } = await openPage()
    const table = await recordTable()
    await events.click(within(rowOf(table, 'mail.example.com')).getByRole('button', { name: 'Delete MX record @' }))
    expect(await screen.findByText('Failed to delete DNS record')).toBeInTheDocument()
    expect(screen.getByText('Record not found')).toBeInTheDocument()
  })

  it("exports the zone file as a download named by the server's filename", async () => {
    serveDomain()
    const zoneFile = '$ORIGIN acme.inf.nz.\n$TTL 3600\n@\t3600\tIN\tA\t192.0.2.10\n'
    server.use(
      http.get('/api/domains/7/zone', () =>
        HttpResponse.json({ success: true, data: { filename: 'acme.inf.nz.zone', zoneFile } }),
      ),
    )
    const blobs: Blob[] = []
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob)
      return 'blob:zone'
    })
    // jsdom has no object URLs; these stay stubbed for the file (the revoke runs later).
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() })
    const clicks: Array<{ href: string; download: string }> = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download })
    })
    const { panel, events } = await openPage()
    await recordTable()
    await events.click(panel.getByRole('button', { name: 'Export zone file' }))
    await waitFor(() => expect(clicks).toEqual([{ href: 'blob:zone', download: 'acme.inf.nz.zone' }]))
    const text = await new Promise((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(reader.result)
      reader.readAsText(blobs[0])
    })
    expect(text).toBe(zoneFile)
  })

  it("toasts 'Export failed' with the server's message", async () => {
    serveDomain()
    server.use(
      http.get('/api/domains/7/zone', () => HttpResponse.json({ success: false, error: 'Not found' }, { status: 404 })),
    )
    const { panel, events } = await openPage()
    await recordTable()
    await events.click(panel.getByRole('button', { name: 'Export zone file' }))
    expect(await screen.findByText('Export failed')).toBeInTheDocument()
    expect(screen.getByText('Not found')).toBeInTheDocument()
  })
})

describe('zone file import', () => {
  const zoneText = '$ORIGIN acme.inf.nz.\n@ 600 IN A 192.0.2.10\nblog IN CNAME acme.inf.nz.\n'
  const plan = {
    add: [{ id: 0, type: 'CNAME', name: 'blog', content: 'acme.inf.nz', ttl: 3600, priority: null }],
    change: [{ ...apexA, ttl: 600 }],
    remove: [mx, srv, www],
    unchanged: 0,
    notes: [],
  }

  async function openImport() {
    const view = await openPage()
    await recordTable()
    await view.events.click(view.panel.getByRole('button', { name: 'Import zone file' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Import zone file' }))
    return { ...view, dialog }
  }

  it('previews what a pasted file adds, changes and removes, then applies it', async () => {
    const state = serveDomain()
    const previews: unknown[] = []
    const imports: unknown[] = []
    server.use(
      http.post('/api/domains/7/zone/preview', async ({ request }) => {
        previews.push(await request.json())
        return HttpResponse.json({ success: true, data: plan })
      }),
      http.post('/api/domains/7/zone/import', async ({ request }) => {
        imports.push(await request.json())
        state.records = [{ ...apexA, ttl: 600 }, { ...plan.add[0], id: 11 } as DnsRecord]
        return HttpResponse.json({ success: true, data: plan })
      }),
    )
    const { dialog, events } = await openImport()
    expect(dialog.getByRole('button', { name: 'Preview' })).toBeDisabled()
    expect(dialog.queryByRole('button', { name: 'Apply import' })).not.toBeInTheDocument()
    await events.click(dialog.getByLabelText('Zone file'))
    await events.paste(zoneText)
    await events.click(dialog.getByRole('button', { name: 'Preview' }))

    const preview = within(await dialog.findByRole('region', { name: 'Import preview' }))
    expect(previews).toEqual([{ zoneFile: zoneText }])
    expect(preview.getByRole('heading', { name: 'To add (1)' })).toBeInTheDocument()
    expect(preview.getByRole('heading', { name: 'To change (1)' })).toBeInTheDocument()
    expect(preview.getByRole('heading', { name: 'To remove (3)' })).toBeInTheDocument()
    expect(within(preview.getByRole('list', { name: 'To add (1)' })).getByRole('listitem')).toHaveTextContent(
      'CNAMEblogacme.inf.nzTTL 3600',
    )
    expect(within(preview.getByRole('list', { name: 'To remove (3)' })).getAllByRole('listitem')[0]).toHaveTextContent(
      '10 mail.example.com',
    )
    expect(dialog.getByText(/records not in the file will be removed/)).toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Apply import' }))
    expect(await screen.findByText('Zone file imported')).toBeInTheDocument()
    expect(screen.getByText('1 added, 1 changed, 3 removed.')).toBeInTheDocument()
    expect(imports).toEqual([{ zoneFile: zoneText }])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    const table = await recordTable()
    await waitFor(() => expect(table.queryByText('10 mail.example.com')).not.toBeInTheDocument())
    expect(table.getByText('blog')).toBeInTheDocument()
  })

  it('reads a chosen file, and editing the text asks for a new preview', async () => {
    serveDomain()
    const previews: unknown[] = []
    server.use(
      http.post('/api/domains/7/zone/preview', async ({ request }) => {
        previews.push(await request.json())
        return HttpResponse.json({ success: true, data: plan })
      }),
    )
    const { dialog, events } = await openImport()
    const file = new File([zoneText], 'acme.inf.nz.zone', { type: 'text/plain' })
    await events.upload(dialog.getByLabelText('Choose a .zone or .txt file'), file)
    await waitFor(() => expect(dialog.getByLabelText('Zone file')).toHaveValue(zoneText))
    await events.click(dialog.getByRole('button', { name: 'Preview' }))
    await dialog.findByRole('region', { name: 'Import preview' })
    expect(previews).toEqual([{ zoneFile: zoneText }])

    await events.type(dialog.getByLabelText('Zone file'), '; note')
    expect(dialog.queryByRole('region', { name: 'Import preview' })).not.toBeInTheDocument()
    expect(dialog.queryByRole('button', { name: 'Apply import' })).not.toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Preview' })).toBeEnabled()
  })

  it('refuses a file larger than the server reads (GET /api/rules), and sends nothing', async () => {
    serveDomain()
    let previews = 0
    server.use(
      http.post('/api/domains/7/zone/preview', () => {
        previews++
        return HttpResponse.json({ success: true, data: plan })
      }),
    )
    const { dialog, events } = await openImport()
    const max = rules.dns.maxZoneFileBytes
    const file = new File(['; x\n'.repeat(max / 4 + 1)], 'big.zone', { type: 'text/plain' })
    await events.upload(dialog.getByLabelText('Choose a .zone or .txt file'), file)
    expect(await dialog.findByText(`big.zone is larger than ${max / 1024} KB.`)).toBeInTheDocument()
    expect(dialog.getByLabelText('Zone file')).toHaveValue('')
    expect(previews).toBe(0)
  })

  it('lists the apex NS records it skips, and keeps them only when the delegation is chosen', async () => {
    serveDomain()
    const fileText = '@ IN NS ns1.dns-host.example.\nwww IN A 192.0.2.10\n'
    const note = {
      line: 1,
      kind: 'apex_ns',
      message: 'Line 1: NS ns1.dns-host.example at the apex skipped: it would delegate acme.inf.nz away.',
      text: '@ IN NS ns1.dns-host.example.',
    }
    const skipped = { ...plan, add: [plan.add[0]], change: [], remove: [], notes: [note] }
    const kept = {
      ...skipped,
      add: [{ id: 0, type: 'NS', name: '@', content: 'ns1.dns-host.example', ttl: 3600, priority: null }],
      notes: [],
    }
    const previews: unknown[] = []
    const imports: unknown[] = []
    server.use(
      http.post('/api/domains/7/zone/preview', async ({ request }) => {
        const body = (await request.json()) as { delegate?: boolean }
        previews.push(body)
        return HttpResponse.json({ success: true, data: body.delegate ? kept : skipped })
      }),
      http.post('/api/domains/7/zone/import', async ({ request }) => {
        imports.push(await request.json())
        return HttpResponse.json({ success: true, data: kept })
      }),
    )
    const { dialog, events } = await openImport()
    await events.click(dialog.getByLabelText('Zone file'))
    await events.paste(fileText)
    await events.click(dialog.getByRole('button', { name: 'Preview' }))
    const skippedLines = await dialog.findByRole('list', { name: 'Skipped lines' })
    expect(skippedLines).toHaveTextContent(note.message)
    expect(within(skippedLines).getByText(note.text)).toBeInTheDocument() // the line as the file has it
    const keep = dialog.getByRole('checkbox', { name: /Keep the NS records at the apex/ })
    expect(keep).not.toBeChecked()

    await events.click(keep)
    await waitFor(() => expect(dialog.queryByRole('list', { name: 'Skipped lines' })).not.toBeInTheDocument())
    expect(keep).toBeChecked()
    expect(previews).toEqual([{ zoneFile: fileText }, { zoneFile: fileText, delegate: true }])
    await events.click(dialog.getByRole('button', { name: 'Apply import' }))
    await screen.findByText('Zone file imported')
    expect(imports).toEqual([{ zoneFile: fileText, delegate: true }])
  })

  it("says 'No changes' when the file matches the records, with nothing to apply", async () => {
    serveDomain()
    server.use(
      http.post('/api/domains/7/zone/preview', () =>
        HttpResponse.json({ success: true, data: { add: [], change: [], remove: [], unchanged: 4, notes: [] } }),
      ),
    )
    const { dialog, events } = await openImport()
    await events.click(dialog.getByLabelText('Zone file'))
    await events.paste(zoneText)
    await events.click(dialog.getByRole('button', { name: 'Preview' }))
    const preview = within(await dialog.findByRole('region', { name: 'Import preview' }))
    expect(preview.getByText('No changes')).toBeInTheDocument()
    expect(preview.getByText(/4 records stay as they are/)).toBeInTheDocument()
    expect(dialog.queryByRole('button', { name: 'Apply import' })).not.toBeInTheDocument()
    expect(dialog.queryByText(/will be removed/)).not.toBeInTheDocument()
  })

  it("shows a preview refusal naming the bad line, and an 'Import failed' toast when applying fails", async () => {
    serveDomain()
    let previewFails = true
    server.use(
      http.post('/api/domains/7/zone/preview', () =>
        previewFails
          ? HttpResponse.json({ success: false, error: 'Line 3: bad A record: not an IPv4 address' }, { status: 422 })
          : HttpResponse.json({ success: true, data: plan }),
      ),
      http.post('/api/domains/7/zone/import', () =>
        HttpResponse.json({ success: false, error: 'Line 2: records outside acme.inf.nz' }, { status: 422 }),
      ),
    )
    const { dialog, events } = await openImport()
    await events.click(dialog.getByLabelText('Zone file'))
    await events.paste(zoneText)
    await events.click(dialog.getByRole('button', { name: 'Preview' }))
    expect(await dialog.findByText('Line 3: bad A record: not an IPv4 address')).toBeInTheDocument()
    expect(dialog.queryByRole('button', { name: 'Apply import' })).not.toBeInTheDocument()

    previewFails = false
    await events.type(dialog.getByLabelText('Zone file'), ' ')
    await events.click(dialog.getByRole('button', { name: 'Preview' }))
    await events.click(await dialog.findByRole('button', { name: 'Apply import' }))
    expect(await screen.findByText('Import failed')).toBeInTheDocument()
    expect(screen.getByText('Line 2: records outside acme.inf.nz')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Import zone file' })).toBeInTheDocument()
  })
})
