import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Schema } from '@/lib/schemas'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'
import { parseNames, parseRecordLines } from '../api/bulk'

type Job = Schema<'BulkJob'>

/** A registrar's server: checks price every name at $6 except taken.inf.nz; a job finishes on its second read. */
function serveBulk() {
  const calls: { path: string; body?: unknown; key?: string | null }[] = []
  let reads = 0
  let job: Job | null = null
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 20, currency: 'USD' } })),
    http.get('/api/registrar/dns-templates', () => HttpResponse.json({ success: true, data: [] })),
    http.post('/api/registrar/bulk/check', async ({ request }) => {
      const body = (await request.json()) as { names: string[] }
      calls.push({ path: 'check', body })
      const results = body.names.map((n) =>
        n === 'taken.inf.nz'
          ? { domain: n, available: false, reason: 'registered', isPremium: false, price: 6 }
          : n.includes('.')
            ? { domain: n, available: true, isPremium: false, price: 6, currency: 'USD' }
            : {
                domain: n,
                available: false,
                isPremium: false,
                price: 0,
                error: 'Enter the full domain name, such as example.inf.nz',
              },
      )
      const available = results.filter((r) => r.available).length
      return HttpResponse.json({ success: true, data: { results, available, total: available * 6 } })
    }),
    http.post('/api/registrar/bulk/jobs', async ({ request }) => {
      const body = (await request.json()) as Schema<'BulkJobRequest'>
      calls.push({ path: 'jobs', body, key: request.headers.get('Idempotency-Key') })
      const names = body.names ?? []
      job = {
        id: 7,
        kind: 'register',
        state: 'queued',
        count: names.length,
        done: 0,
        succeeded: 0,
        failed: 0,
        total: body.total ?? 0,
        charged: 0,
        years: 1,
        createdAt: '2026-11-22T12:00:00Z',
        rows: names.map((n, i) => ({ position: i + 1, domain: n, state: 'pending', price: 6, charged: 0 })),
      }
      return HttpResponse.json({ success: true, data: { ...job, rows: undefined } }, { status: 201 })
    }),
    http.get('/api/registrar/bulk/jobs/7', () => {
      reads++
      if (job && reads >= 2) {
        const rows = (job.rows ?? []).map((r, i, all) =>
          i === all.length - 1
            ? { ...r, state: 'failed' as const, message: 'Insufficient funds: add $6.00 to your wallet' }
            : { ...r, state: 'succeeded' as const, charged: 6, message: 'Registered until November 22, 2027' },
        )
        job = {
          ...job,
          state: 'done',
          done: rows.length,
          succeeded: rows.length - 1,
          failed: 1,
          charged: (rows.length - 1) * 6,
          rows,
        }
      }
      return HttpResponse.json({ success: true, data: job })
    }),
  )
  return calls
}

describe('Bulk Operations tab', () => {
  it('checks pasted names, confirms the total once, and shows each row of the job', async () => {
    const calls = serveBulk()
    renderApp('/registrar-dashboard?tab=bulk', { user: registrar })
    const names = await screen.findByLabelText('Domain names')
    await userEvent.type(names, 'one.inf.nz{enter}two.inf.nz{enter}three.inf.nz{enter}taken.inf.nz{enter}nodot')
    await userEvent.click(screen.getByRole('button', { name: 'Check availability' }))

    const table = await screen.findByRole('table', { name: 'Availability' })
    expect(within(table).getByText('Taken')).toBeInTheDocument()
    expect(within(table).getByText('Enter the full domain name, such as example.inf.nz')).toBeInTheDocument()
    expect(screen.getByText('3 of 5 available')).toBeInTheDocument()
    // Every available name is chosen; one less makes the total smaller.
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Register two.inf.nz' }))
    expect(screen.getByRole('button', { name: 'Register 2 domains for $12.00' })).toBeInTheDocument()
    await userEvent.click(within(table).getByRole('checkbox', { name: 'Select all available' }))
    await userEvent.click(screen.getByRole('button', { name: 'Register 3 domains for $18.00' }))

    const dialog = await screen.findByRole('dialog', { name: 'Confirm registration' })
    expect(dialog).toHaveTextContent('Register 3 domains for one year for a total of $18.00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Pay $18.00' }))

    const job = await screen.findByRole('region', { name: 'Registration job' })
    await waitFor(() => expect(within(job).getByRole('status')).toHaveTextContent('Finished: 3 of 3 done'), {
      timeout: 4000,
    })
    expect(within(job).getAllByText('Registered')).toHaveLength(2)
    expect(within(job).getByText('Refused')).toBeInTheDocument()
    expect(within(job).getByText('Insufficient funds: add $6.00 to your wallet')).toBeInTheDocument()

    const sent = calls.find((c) => c.path === 'jobs')
    expect(sent?.body).toEqual({ kind: 'register', names: ['one.inf.nz', 'two.inf.nz', 'three.inf.nz'], total: 18 })
    expect(sent?.key).toBeTruthy()
  })

  it('refuses an empty list before asking the server', async () => {
    const calls = serveBulk()
    renderApp('/registrar-dashboard?tab=bulk', { user: registrar })
    await userEvent.click(await screen.findByRole('button', { name: 'Check availability' }))
    expect(await screen.findByText('Enter at least one domain name')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })
})

describe('DNS templates', () => {
  it('edits a template in place, keeping its TTLs, and deletes one after asking', async () => {
    let templates: Schema<'DNSTemplate'>[] = [
      {
        id: 3,
        name: 'Web',
        records: [
          { name: '@', type: 'A', values: ['192.0.2.10'], ttl: 600 },
          { name: '@', type: 'MX', values: ['mx.example.com'], priority: 10 },
        ],
        createdAt: '2026-11-22T12:00:00Z',
        updatedAt: '2026-11-22T12:00:00Z',
      },
    ]
    const sent: { method: string; body?: unknown }[] = []
    serveBulk()
    server.use(
      http.get('/api/registrar/dns-templates', () => HttpResponse.json({ success: true, data: templates })),
      http.put('/api/registrar/dns-templates/3', async ({ request }) => {
        const body = (await request.json()) as Schema<'DNSTemplateRequest'>
        sent.push({ method: 'PUT', body })
        templates = [{ ...templates[0], name: body.name, records: body.records }]
        return HttpResponse.json({ success: true, data: templates[0] })
      }),
      http.delete('/api/registrar/dns-templates/3', () => {
        sent.push({ method: 'DELETE' })
        templates = []
        return HttpResponse.json({ success: true, data: null })
      }),
    )
    renderApp('/registrar-dashboard?tab=bulk', { user: registrar })
    await userEvent.click(await screen.findByRole('button', { name: 'Edit template Web' }))
    expect(screen.getByRole('heading', { name: 'Edit Web' })).toBeInTheDocument()
    const records = screen.getByLabelText('Records')
    expect(records).toHaveValue('@ A 192.0.2.10\n@ MX 10 mx.example.com')
    await userEvent.type(records, '{enter}www A 192.0.2.11')
    const name = screen.getByLabelText('Template name')
    await userEvent.clear(name)
    await userEvent.type(name, 'Web 2')
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].body).toEqual({
      name: 'Web 2',
      records: [
        { name: '@', type: 'A', values: ['192.0.2.10'], ttl: 600 },
        { name: '@', type: 'MX', values: ['10 mx.example.com'] },
        { name: 'www', type: 'A', values: ['192.0.2.11'] },
      ],
    })
    expect(await screen.findByRole('heading', { name: 'New template' })).toBeInTheDocument()

    await userEvent.click(await screen.findByRole('button', { name: 'Delete template Web 2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete template' })
    expect(sent).toHaveLength(1) // nothing deleted before the confirmation
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('No templates yet.')).toBeInTheDocument()
    expect(sent[1]).toEqual({ method: 'DELETE' })
  })
})

describe('Bulk renewal', () => {
  it('chooses pasted names among the listed domains and names the others', async () => {
    serveBulk()
    const domain = (id: number, name: string) => ({
      id,
      name,
      extension: '.inf.nz',
      status: 'active',
      autoRenew: false,
      renewalPrice: 6,
      expiresAt: '2027-11-22T12:00:00Z',
      createdAt: '2026-11-22T12:00:00Z',
    })
    server.use(
      http.get('/api/domains', () =>
        HttpResponse.json({ success: true, data: [domain(1, 'alpha'), domain(2, 'beta'), domain(3, 'gamma')] }),
      ),
    )
    renderApp('/registrar-dashboard?tab=bulk', { user: registrar })
    await userEvent.type(
      await screen.findByLabelText('Paste names'),
      'Alpha.inf.nz{enter}gamma.inf.nz{enter}nope.inf.nz',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Choose pasted names' }))
    expect(screen.getByRole('checkbox', { name: 'Choose alpha.inf.nz' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Choose beta.inf.nz' })).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Choose gamma.inf.nz' })).toBeChecked()
    expect(screen.getByText('Not among your domains: nope.inf.nz')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Renew 2 for $12.00' })).toBeInTheDocument()
  })
})

describe('parsing', () => {
  it('reads lines, and CSV files by their name column', () => {
    expect(parseNames('a.inf.nz\n\n b.inf.nz \r\n')).toEqual(['a.inf.nz', 'b.inf.nz'])
    expect(parseNames('years,domain\n2,a.inf.nz\n1,"b.inf.nz"')).toEqual(['a.inf.nz', 'b.inf.nz'])
    expect(parseNames('a.inf.nz,2\nb.inf.nz,1')).toEqual(['a.inf.nz', 'b.inf.nz'])
  })
  it('groups record lines into sets', () => {
    expect(parseRecordLines('@ A 192.0.2.1\n@ a 192.0.2.2\n@ MX 10 mx.example.com')).toEqual({
      sets: [
        { name: '@', type: 'A', values: ['192.0.2.1', '192.0.2.2'] },
        { name: '@', type: 'MX', values: ['10 mx.example.com'] },
      ],
    })
    expect(parseRecordLines('www')).toEqual({ error: 'Write each record as "name type value": www' })
  })
})
