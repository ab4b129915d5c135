import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DnsRecord } from '@/lib/dns'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { DsRecord } from '../api/ds'

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

const ns: DnsRecord = { id: 1, type: 'NS', name: '@', content: 'ns1.example.net', ttl: 3600, priority: null }
const apexA: DnsRecord = { id: 2, type: 'A', name: '@', content: '192.0.2.10', ttl: 3600, priority: null }
const digest = '1F987CC6583E92DF0890718C42C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8'
const existing: DsRecord = { id: 5, keyTag: 2371, algorithm: 13, digestType: 2, digest, ttl: 3600 }

function serve(records: DnsRecord[], ds: DsRecord[] = []) {
  const state = { ds: [...ds], posted: [] as unknown[] }
  server.use(
    http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
    http.get('/api/domains/7/dns', () => HttpResponse.json({ success: true, data: records })),
    http.get('/api/domains/7/ds', () => HttpResponse.json({ success: true, data: state.ds })),
    http.post('/api/domains/7/ds', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      state.posted.push(body)
      if (String(body.digest).length !== 64) {
        return HttpResponse.json(
          { success: false, error: 'A digest of type 2 is 64 hexadecimal characters long, not 4' },
          { status: 422 },
        )
      }
      const made = { id: 6, ttl: 3600, ...body } as DsRecord
      state.ds.push(made)
      return HttpResponse.json({ success: true, data: made }, { status: 201 })
    }),
    http.delete('/api/domains/7/ds/:dsId', ({ params }) => {
      state.ds = state.ds.filter((d) => String(d.id) !== params.dsId)
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  return state
}

/** Opens the domain's page and waits for the DNSSEC card of its DNS tab. */
async function dnssecCard() {
  renderApp('/domain-management/7', { user: endUser })
  await screen.findByText('DNSSEC')
}

describe('DNSSEC card', () => {
  afterEach(() => vi.restoreAllMocks())

  it('explains that a domain Nameport serves needs no DS records', async () => {
    serve([apexA])
    await dnssecCard()
    expect(await screen.findByText(/DS records are for a domain delegated to other name servers/)).toBeInTheDocument()
    expect(screen.queryByRole('form', { name: 'Add DS record' })).not.toBeInTheDocument()
  })

  it('lists, adds and deletes the DS records of a delegated domain', async () => {
    const state = serve([ns], [existing])
    const user = userEvent.setup()
    await dnssecCard()
    const list = within(await screen.findByRole('list', { name: 'DS records' }))
    expect(list.getByText(/Key tag 2371 · algorithm 13 · digest type 2/)).toBeInTheDocument()
    expect(list.getByText(digest)).toBeInTheDocument()

    const form = within(screen.getByRole('form', { name: 'Add DS record' }))
    await user.type(form.getByLabelText('Key tag'), '4242')
    await user.selectOptions(form.getByLabelText('Algorithm'), '15')
    await user.type(form.getByLabelText('Digest'), 'ABCD')
    await user.click(form.getByRole('button', { name: 'Add DS record' }))
    // The server's message, shown at the field; nothing added.
    expect(await form.findByText('A digest of type 2 is 64 hexadecimal characters long, not 4')).toBeInTheDocument()
    expect(state.ds).toHaveLength(1)

    await user.clear(form.getByLabelText('Digest'))
    await user.type(form.getByLabelText('Digest'), digest.toLowerCase())
    await user.click(form.getByRole('button', { name: 'Add DS record' }))
    await waitFor(() => expect(state.ds).toHaveLength(2))
    expect(state.posted.at(-1)).toEqual({ keyTag: 4242, algorithm: 15, digestType: 2, digest: digest.toLowerCase() })
    expect(await screen.findByText(/Key tag 4242 · algorithm 15/)).toBeInTheDocument()

    vi.spyOn(window, 'confirm').mockReturnValue(true)
    await user.click(screen.getByRole('button', { name: 'Delete DS record 2371' }))
    await waitFor(() => expect(screen.queryByText(/Key tag 2371/)).not.toBeInTheDocument())
    expect(state.ds.map((d) => d.id)).toEqual([6])
  })

  it('checks the key tag before sending', async () => {
    const state = serve([ns])
    const user = userEvent.setup()
    await dnssecCard()
    const form = within(await screen.findByRole('form', { name: 'Add DS record' }))
    await user.type(form.getByLabelText('Key tag'), '70000')
    await user.type(form.getByLabelText('Digest'), digest)
    await user.click(form.getByRole('button', { name: 'Add DS record' }))
    expect(await form.findByText('Key tag must be from 0 to 65535')).toBeInTheDocument()
    expect(state.posted).toHaveLength(0)
  })
})
