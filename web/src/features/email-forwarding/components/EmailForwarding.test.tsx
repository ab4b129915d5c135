import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Forwarding, ForwardingRule } from '@/lib/emailForwarding'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { ForwardingLogEntry } from '../api/forwarding'

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

const info: ForwardingRule = {
  id: 1,
  alias: 'info',
  destinations: [
    { address: 'alice@example.com', verified: true },
    { address: 'bob@example.net', verified: false },
  ],
  createdAt: '2026-03-05T12:00:00Z',
}
const catchAll: ForwardingRule = {
  id: 2,
  alias: '*',
  destinations: [{ address: 'alice@example.com', verified: true }],
  createdAt: '2026-03-06T12:00:00Z',
}

/** The forwarding as GET answers it: off, nothing to replace, the two rules, the end user's limit. */
function forwardingOf(fields: Partial<Forwarding> = {}): Forwarding {
  return { enabled: false, mailHost: 'mx.inf.nz', replaces: [], rules: [info, catchAll], maxRules: 20, ...fields }
}

const forwarded: ForwardingLogEntry = {
  time: '2026-03-07T12:00:00Z',
  from: 'news@shop.example',
  to: 'info@acme.inf.nz',
  forwardTo: 'alice@example.com',
  size: 12_800,
  outcome: 'forwarded',
}
const refused: ForwardingLogEntry = {
  time: '2026-03-07T11:00:00Z',
  from: '',
  to: 'nobody@acme.inf.nz',
  size: 0,
  outcome: 'refused',
  detail: 'No rule forwards this address',
}

const FORWARDING = '/api/domains/7/email-forwarding'

/**
 * Serves the domain, a forwarding that the PUT, POST and DELETE handlers
 * tests add change, and the log; returns the state to read and change.
 */
function serveForwarding(forwarding = forwardingOf(), log: ForwardingLogEntry[] = [forwarded, refused]) {
  const state = { forwarding, log, gets: 0 }
  server.use(
    http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
    http.get('/api/domains/7/dns', () => HttpResponse.json({ success: true, data: [] })),
    http.get(FORWARDING, () => {
      state.gets++
      return HttpResponse.json({ success: true, data: state.forwarding })
    }),
    http.get(`${FORWARDING}/log`, () => HttpResponse.json({ success: true, data: state.log })),
  )
  return state
}

async function openTab() {
  const view = renderApp('/domain-management/7?tab=email-forwarding', { user: endUser })
  const panel = within(await screen.findByRole('tabpanel', { name: 'Email Forwarding' }))
  return { ...view, panel }
}

function rowOf(table: ReturnType<typeof within>, text: string): HTMLElement {
  return table.getAllByRole('row').find((row: HTMLElement) => row.textContent?.includes(text))!
}

describe('Email Forwarding tab', () => {
  it('sits beside DNS Management, and choosing it puts it in the address', async () => {
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
    await events.click(screen.getByRole('tab', { name: 'Email Forwarding' }))
    const panel = within(await screen.findByRole('tabpanel', { name: 'Email Forwarding' }))
    expect(await panel.findByText('mx.inf.nz')).toBeInTheDocument()
    expect(router.state.location.search).toEqual({ tab: 'email-forwarding' })
  })

  it('shows a spinner while the forwarding loads', async () => {
    server.use(
      http.get('/api/domains/7', () => HttpResponse.json({ success: true, data: acme })),
      http.get(FORWARDING, () => new Promise(() => {})),
    )
    const { panel } = await openTab()
    expect(panel.getByRole('status', { name: 'Loading' })).toBeInTheDocument()
    expect(panel.getByText('Loading email forwarding...')).toBeInTheDocument()
  })

  it('says when the forwarding cannot be loaded, and Retry loads it again', async () => {
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
    expect(await panel.findByText('Failed to load email forwarding. Please try again.')).toBeInTheDocument()
    expect(panel.queryByRole('button', { name: 'Add rule' })).not.toBeInTheDocument()
    failing = false
    await events.click(panel.getByRole('button', { name: 'Retry' }))
    expect(await panel.findByRole('table', { name: 'Forwarding rules' })).toBeInTheDocument()
    expect(state.gets).toBe(1)
  })

  it('shows the switch, the mail host, the rules with their addresses and the count against the limit', async () => {
    serveForwarding()
    const { panel } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))

    expect(panel.getByText('Off')).toBeInTheDocument()
    expect(panel.getByRole('button', { name: 'Turn on email forwarding' })).toHaveTextContent('Turn on')
    expect(panel.getByText('mx.inf.nz')).toBeInTheDocument()
    expect(panel.getByText(/Turning forwarding on points acme\.inf\.nz's MX record at this server/)).toBeInTheDocument()
    expect(panel.getByText('2 of 20 rules')).toBeInTheDocument()

    expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Address',
      'Forwards to',
      'Actions',
    ])
    const infoRow = within(rowOf(table, 'info@acme.inf.nz'))
    expect(infoRow.getByRole('rowheader')).toHaveTextContent('info@acme.inf.nz')
    const alice = within(infoRow.getByText('alice@example.com').closest('li')!)
    expect(alice.getByText('Verified')).toBeInTheDocument()
    expect(alice.queryByRole('button', { name: /Resend link/ })).not.toBeInTheDocument()
    const bob = within(infoRow.getByText('bob@example.net').closest('li')!)
    expect(bob.getByText('Waiting for confirmation')).toBeInTheDocument()
    expect(bob.getByRole('button', { name: 'Resend link to bob@example.net' })).toHaveTextContent('Resend link')

    expect(rowOf(table, 'Catch-all (*@acme.inf.nz)')).toBeInTheDocument()
    // The phone list carries the same rules.
    expect(within(panel.getByRole('list', { name: 'Forwarding rules' })).getAllByText(/@acme\.inf\.nz/)).toHaveLength(2)
    expect(panel.getByText(/receives mail only after its owner opens the confirmation link/)).toBeInTheDocument()
  })

  it('says so when there are no rules yet', async () => {
    serveForwarding(forwardingOf({ rules: [], enabled: true }))
    const { panel } = await openTab()
    expect(await panel.findByText('No forwarding rules yet')).toBeInTheDocument()
    expect(panel.getByText('0 of 20 rules')).toBeInTheDocument()
    expect(panel.getByText('On')).toBeInTheDocument()
    expect(panel.getByText(/acme\.inf\.nz's MX record names this server/)).toBeInTheDocument()
    expect(panel.queryByRole('table', { name: 'Forwarding rules' })).not.toBeInTheDocument()
  })

  it('turns forwarding on with PUT, says so and reloads the DNS records; then off', async () => {
    const state = serveForwarding()
    const bodies: unknown[] = []
    server.use(
      http.put(FORWARDING, async ({ request }) => {
        const body = (await request.json()) as { enabled: boolean }
        bodies.push(body)
        state.forwarding = { ...state.forwarding, enabled: body.enabled }
        return HttpResponse.json({ success: true, data: state.forwarding })
      }),
    )
    const { panel, events, queryClient } = await openTab()
    queryClient.setQueryData(['/api/domains/7/dns'], [])

    await events.click(await panel.findByRole('button', { name: 'Turn on email forwarding' }))
    expect(await screen.findByText('Email forwarding turned on')).toBeInTheDocument()
    expect(screen.getByText('Mail for acme.inf.nz now goes to mx.inf.nz.')).toBeInTheDocument()
    expect(panel.getByText('On')).toBeInTheDocument()
    await waitFor(() => expect(queryClient.getQueryState(['/api/domains/7/dns'])?.isInvalidated).toBe(true))

    await events.click(panel.getByRole('button', { name: 'Turn off email forwarding' }))
    expect(await screen.findByText('Email forwarding turned off')).toBeInTheDocument()
    expect(panel.getByText('Off')).toBeInTheDocument()
    expect(bodies).toEqual([{ enabled: true }, { enabled: false }])
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it("asks before replacing another service's mail records, and replaces them only when confirmed", async () => {
    const state = serveForwarding(
      forwardingOf({ replaces: ['MX 10 mail.example.net', 'TXT v=spf1 include:example.net ~all'] }),
    )
    const bodies: unknown[] = []
    server.use(
      http.put(FORWARDING, async ({ request }) => {
        bodies.push(await request.json())
        state.forwarding = { ...state.forwarding, enabled: true, replaces: [] }
        return HttpResponse.json({ success: true, data: state.forwarding })
      }),
    )
    const { panel, events } = await openTab()

    await events.click(await panel.findByRole('button', { name: 'Turn on email forwarding' }))
    let dialog = within(await screen.findByRole('dialog', { name: 'Replace mail records?' }))
    expect(dialog.getByText(/replaces these mail records of acme\.inf\.nz/)).toBeInTheDocument()
    expect(
      within(dialog.getByRole('list', { name: 'Records to replace' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['MX 10 mail.example.net', 'TXT v=spf1 include:example.net ~all'])
    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(bodies).toEqual([])

    await events.click(panel.getByRole('button', { name: 'Turn on email forwarding' }))
    dialog = within(await screen.findByRole('dialog', { name: 'Replace mail records?' }))
    await events.click(dialog.getByRole('button', { name: 'Replace and turn on' }))
    expect(await screen.findByText('Email forwarding turned on')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(bodies).toEqual([{ enabled: true, replaceMailRecords: true }])
  })

  it("shows the server's refusal to turn on, and reloads the forwarding so the next try asks first", async () => {
    const state = serveForwarding()
    const message = "Turning forwarding on replaces this domain's mail records: MX 10 mail.example.net"
    server.use(
      http.put(FORWARDING, () => {
        state.forwarding = { ...state.forwarding, replaces: ['MX 10 mail.example.net'] }
        return HttpResponse.json({ success: false, code: 'conflict', error: message }, { status: 409 })
      }),
    )
    const { panel, events } = await openTab()
    await events.click(await panel.findByRole('button', { name: 'Turn on email forwarding' }))
    expect(await screen.findByText('Failed to change email forwarding')).toBeInTheDocument()
    expect(screen.getByText(message)).toBeInTheDocument()
    await waitFor(() => expect(state.gets).toBe(2))
    await events.click(panel.getByRole('button', { name: 'Turn on email forwarding' }))
    expect(await screen.findByRole('dialog', { name: 'Replace mail records?' })).toBeInTheDocument()
  })

  it('adds a rule to two addresses, says a link was mailed, reloads the rules and clears the form', async () => {
    const state = serveForwarding(forwardingOf({ rules: [] }))
    const bodies: unknown[] = []
    server.use(
      http.post(`${FORWARDING}/rules`, async ({ request }) => {
        const body = (await request.json()) as { alias: string; destinations: string[] }
        bodies.push(body)
        const rule: ForwardingRule = {
          id: 9,
          alias: body.alias,
          destinations: body.destinations.map((address) => ({ address, verified: address === 'alice@example.com' })),
          createdAt: '2026-03-08T12:00:00Z',
        }
        state.forwarding = { ...state.forwarding, rules: [rule] }
        return HttpResponse.json({ success: true, data: rule }, { status: 201 })
      }),
    )
    const { panel, events } = await openTab()
    const form = within(await panel.findByRole('form', { name: 'Add a forwarding rule' }))
    expect(form.getByText('@acme.inf.nz')).toBeInTheDocument()
    await events.type(form.getByLabelText('Alias'), ' sales ')
    await events.type(form.getByLabelText('Forward to address 1'), 'alice@example.com')
    await events.click(form.getByRole('button', { name: 'Add another address' }))
    await events.type(form.getByLabelText('Forward to address 2'), 'carol@example.org')
    await events.click(form.getByRole('button', { name: 'Add another address' }))
    await events.click(form.getByRole('button', { name: 'Add rule' }))

    expect(await screen.findByText('Forwarding rule added')).toBeInTheDocument()
    expect(
      screen.getByText('We emailed a confirmation link to carol@example.org. Mail is forwarded once it is opened.'),
    ).toBeInTheDocument()
    // The third box was left empty: it is no address.
    expect(bodies).toEqual([{ alias: 'sales', destinations: ['alice@example.com', 'carol@example.org'] }])
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    expect(rowOf(table, 'sales@acme.inf.nz')).toHaveTextContent('Waiting for confirmation')
    expect(panel.getByText('1 of 20 rules')).toBeInTheDocument()
    expect(form.getByLabelText('Alias')).toHaveValue('')
    expect(form.getByLabelText('Forward to address 1')).toHaveValue('')
    expect(form.queryByLabelText('Forward to address 2')).not.toBeInTheDocument()
  })

  it('adds the catch-all as *', async () => {
    serveForwarding(forwardingOf({ rules: [info] }))
    const bodies: unknown[] = []
    server.use(
      http.post(`${FORWARDING}/rules`, async ({ request }) => {
        const body = (await request.json()) as { alias: string; destinations: string[] }
        bodies.push(body)
        return HttpResponse.json(
          {
            success: true,
            data: { ...catchAll, destinations: body.destinations.map((address) => ({ address, verified: true })) },
          },
          { status: 201 },
        )
      }),
    )
    const { panel, events } = await openTab()
    const form = within(await panel.findByRole('form', { name: 'Add a forwarding rule' }))
    await events.type(form.getByLabelText('Alias'), 'ignored')
    await events.click(form.getByRole('checkbox', { name: /Catch-all/ }))
    expect(form.getByLabelText('Alias')).toBeDisabled()
    await events.type(form.getByLabelText('Forward to address 1'), 'alice@example.com')
    await events.click(form.getByRole('button', { name: 'Add rule' }))
    expect(await screen.findByText('Forwarding rule added')).toBeInTheDocument()
    expect(screen.getByText('Mail to Catch-all (*@acme.inf.nz) is forwarded.')).toBeInTheDocument()
    expect(bodies).toEqual([{ alias: '*', destinations: ['alice@example.com'] }])
  })

  it('leaves checking to the server and shows its message as it comes, keeping what was typed', async () => {
    serveForwarding(forwardingOf({ rules: [] }))
    const bodies: unknown[] = []
    const messages = [
      'Name at least one address to forward to',
      '"bob@acme.inf.nz" is not an address mail can be forwarded to: it is at the forwarding domain itself',
    ]
    server.use(
      http.post(`${FORWARDING}/rules`, async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json(
          { success: false, code: 'invalid', error: messages[bodies.length - 1] },
          { status: 422 },
        )
      }),
    )
    const { panel, events } = await openTab()
    const form = within(await panel.findByRole('form', { name: 'Add a forwarding rule' }))
    await events.click(form.getByRole('button', { name: 'Add rule' }))
    expect(await form.findByRole('alert')).toHaveTextContent('Name at least one address to forward to')

    await events.type(form.getByLabelText('Alias'), 'bob')
    await events.type(form.getByLabelText('Forward to address 1'), 'bob@acme.inf.nz')
    await events.click(form.getByRole('button', { name: 'Add rule' }))
    await waitFor(() => expect(form.getByRole('alert')).toHaveTextContent(messages[1]))
    expect(bodies).toEqual([
      { alias: '', destinations: [] },
      { alias: 'bob', destinations: ['bob@acme.inf.nz'] },
    ])
    expect(form.getByLabelText('Forward to address 1')).toHaveValue('bob@acme.inf.nz')
    expect(screen.queryByText('Forwarding rule added')).not.toBeInTheDocument()
  })

  it('deletes a rule after asking, and not when cancelled', async () => {
    const state = serveForwarding()
    const deleted: string[] = []
    server.use(
      http.delete(`${FORWARDING}/rules/:ruleId`, ({ params }) => {
        deleted.push(String(params.ruleId))
        state.forwarding = {
          ...state.forwarding,
          rules: state.forwarding.rules.filter((r) => String(r.id) !== params.ruleId),
        }
        return HttpResponse.json({ success: true })
      }),
    )
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    const deleteInfo = within(rowOf(table, 'info@acme.inf.nz')).getByRole('button', {
      name: 'Delete rule info@acme.inf.nz',
    })

    await events.click(deleteInfo)
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete the rule for info@acme.inf.nz?' }))
    expect(dialog.getByText('Mail to info@acme.inf.nz will no longer be forwarded.')).toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(deleted).toEqual([])

    await events.click(deleteInfo)
    dialog = within(await screen.findByRole('dialog', { name: 'Delete the rule for info@acme.inf.nz?' }))
    await events.click(dialog.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Forwarding rule deleted')).toBeInTheDocument()
    await waitFor(() => expect(table.queryByText('info@acme.inf.nz')).not.toBeInTheDocument())
    expect(deleted).toEqual(['1'])
    expect(panel.getByText('1 of 20 rules')).toBeInTheDocument()
  })

  /** Serves the PUT of a rule: records what is sent, and answers with the rule as the server would. */
  function serveRuleUpdate(state: ReturnType<typeof serveForwarding>) {
    const puts: Array<{ ruleId: string; body: unknown }> = []
    server.use(
      http.put(`${FORWARDING}/rules/:ruleId`, async ({ params, request }) => {
        const body = (await request.json()) as { alias: string; destinations: string[] }
        puts.push({ ruleId: String(params.ruleId), body })
        const verified = new Set(
          state.forwarding.rules.flatMap((r) => r.destinations.filter((d) => d.verified).map((d) => d.address)),
        )
        const old = state.forwarding.rules.find((r) => String(r.id) === params.ruleId)!
        const rule: ForwardingRule = {
          ...old,
          alias: body.alias,
          destinations: body.destinations.map((address) => ({ address, verified: verified.has(address) })),
        }
        state.forwarding = { ...state.forwarding, rules: state.forwarding.rules.map((r) => (r === old ? rule : r)) }
        return HttpResponse.json({ success: true, data: rule })
      }),
    )
    return puts
  }

  it('edits a rule in a dialog filled in with it; Save sends PUT, says so and reloads the rules', async () => {
    const state = serveForwarding()
    const puts = serveRuleUpdate(state)
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    await events.click(
      within(rowOf(table, 'info@acme.inf.nz')).getByRole('button', { name: 'Edit rule info@acme.inf.nz' }),
    )

    const dialog = within(await screen.findByRole('dialog', { name: 'Edit the rule for info@acme.inf.nz' }))
    expect(dialog.getByLabelText('Alias')).toHaveValue('info')
    expect(dialog.getByLabelText('Alias')).toBeEnabled()
    expect(dialog.getByRole('checkbox', { name: /Catch-all/ })).not.toBeChecked()
    expect(dialog.getByLabelText('Forward to address 1')).toHaveValue('alice@example.com')
    expect(dialog.getByLabelText('Forward to address 2')).toHaveValue('bob@example.net')
    expect(dialog.queryByLabelText('Forward to address 3')).not.toBeInTheDocument()
    const getsBefore = state.gets

    await events.clear(dialog.getByLabelText('Alias'))
    await events.type(dialog.getByLabelText('Alias'), ' contact ')
    await events.click(dialog.getByRole('button', { name: 'Remove address 2' }))
    await events.click(dialog.getByRole('button', { name: 'Add another address' }))
    await events.type(dialog.getByLabelText('Forward to address 2'), 'carol@example.org')
    await events.click(dialog.getByRole('button', { name: 'Save' }))

    expect(await screen.findByText('Forwarding rule saved')).toBeInTheDocument()
    expect(
      screen.getByText('Mail reaches carol@example.org once the confirmation link we emailed is opened.'),
    ).toBeInTheDocument()
    expect(puts).toEqual([
      { ruleId: '1', body: { alias: 'contact', destinations: ['alice@example.com', 'carol@example.org'] } },
    ])
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // The status is asked for again, and the table shows the rule as it is now.
    await waitFor(() => expect(table.queryByText('info@acme.inf.nz')).not.toBeInTheDocument())
    expect(state.gets).toBe(getsBefore + 1)
    const contact = within(rowOf(table, 'contact@acme.inf.nz'))
    expect(contact.getByText('carol@example.org')).toBeInTheDocument()
    expect(contact.queryByText('bob@example.net')).not.toBeInTheDocument()
    expect(panel.getByText('2 of 20 rules')).toBeInTheDocument()
  })

  it('opens the catch-all as the catch-all, and saves it as *', async () => {
    const state = serveForwarding()
    const puts = serveRuleUpdate(state)
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    await events.click(table.getByRole('button', { name: 'Edit rule Catch-all (*@acme.inf.nz)' }))

    const dialog = within(await screen.findByRole('dialog', { name: 'Edit the rule for Catch-all (*@acme.inf.nz)' }))
    expect(dialog.getByRole('checkbox', { name: /Catch-all/ })).toBeChecked()
    expect(dialog.getByLabelText('Alias')).toBeDisabled()
    await events.type(dialog.getByLabelText('Forward to address 1'), '{Control>}a{/Control}dave@example.com')
    await events.click(dialog.getByRole('button', { name: 'Save' }))

    expect(await screen.findByText('Forwarding rule saved')).toBeInTheDocument()
    expect(puts).toEqual([{ ruleId: '2', body: { alias: '*', destinations: ['dave@example.com'] } }])
  })

  it("shows the server's refusal in the dialog as it comes and keeps what was typed; Cancel closes it unsaved", async () => {
    const state = serveForwarding()
    const messages = ['This alias already has a rule', 'Name at least one address to forward to']
    const puts: unknown[] = []
    server.use(
      http.put(`${FORWARDING}/rules/:ruleId`, async ({ request }) => {
        puts.push(await request.json())
        return puts.length === 1
          ? HttpResponse.json({ success: false, code: 'conflict', error: messages[0] }, { status: 409 })
          : HttpResponse.json({ success: false, code: 'invalid', error: messages[1] }, { status: 422 })
      }),
    )
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    const edit = table.getByRole('button', { name: 'Edit rule info@acme.inf.nz' })
    await events.click(edit)
    let dialog = within(await screen.findByRole('dialog', { name: 'Edit the rule for info@acme.inf.nz' }))
    await events.clear(dialog.getByLabelText('Alias'))
    await events.type(dialog.getByLabelText('Alias'), 'sales')
    await events.click(dialog.getByRole('button', { name: 'Save' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(messages[0])
    expect(dialog.getByLabelText('Alias')).toHaveValue('sales')

    await events.click(dialog.getByRole('button', { name: 'Remove address 2' }))
    await events.clear(dialog.getByLabelText('Forward to address 1'))
    await events.click(dialog.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(dialog.getByRole('alert')).toHaveTextContent(messages[1]))
    expect(puts).toEqual([
      { alias: 'sales', destinations: ['alice@example.com', 'bob@example.net'] },
      { alias: 'sales', destinations: [] },
    ])
    expect(screen.queryByText('Forwarding rule saved')).not.toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(rowOf(table, 'info@acme.inf.nz')).toHaveTextContent('bob@example.net')
    expect(state.gets).toBe(1)
    // Opened again, it has the rule as it is, and no old refusal.
    await events.click(edit)
    dialog = within(await screen.findByRole('dialog', { name: 'Edit the rule for info@acme.inf.nz' }))
    expect(dialog.getByLabelText('Alias')).toHaveValue('info')
    expect(dialog.getByLabelText('Forward to address 2')).toHaveValue('bob@example.net')
    expect(dialog.queryByRole('alert')).not.toBeInTheDocument()
    expect(puts).toHaveLength(2)
  })

  it('says so when the rule is gone, and reloads the rules', async () => {
    const state = serveForwarding()
    server.use(
      http.put(`${FORWARDING}/rules/:ruleId`, () => {
        state.forwarding = { ...state.forwarding, rules: [catchAll] }
        return HttpResponse.json(
          { success: false, code: 'not_found', error: 'Forwarding rule not found' },
          { status: 404 },
        )
      }),
    )
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    await events.click(table.getByRole('button', { name: 'Edit rule info@acme.inf.nz' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit the rule for info@acme.inf.nz' }))
    await events.click(dialog.getByRole('button', { name: 'Save' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('Forwarding rule not found')
    await waitFor(() => expect(state.gets).toBe(2))
    await waitFor(() => expect(table.queryByText('info@acme.inf.nz')).not.toBeInTheDocument())
  })

  it("resends an address's link, and shows the server's answer when it is too soon", async () => {
    serveForwarding()
    const bodies: unknown[] = []
    server.use(
      http.post(`${FORWARDING}/destinations/resend`, async ({ request }) => {
        bodies.push(await request.json())
        return bodies.length === 1
          ? HttpResponse.json({ success: true })
          : HttpResponse.json(
              {
                success: false,
                code: 'too_many_requests',
                error: 'A confirmation link was sent to this address less than a minute ago',
              },
              { status: 429 },
            )
      }),
    )
    const { panel, events } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding rules' }))
    const resend = table.getByRole('button', { name: 'Resend link to bob@example.net' })
    await events.click(resend)
    expect(await screen.findByText('Confirmation link sent')).toBeInTheDocument()
    expect(screen.getByText('We emailed a new link to bob@example.net.')).toBeInTheDocument()
    await waitFor(() => expect(resend).toBeEnabled())
    await events.click(resend)
    expect(
      await screen.findByText('A confirmation link was sent to this address less than a minute ago'),
    ).toBeInTheDocument()
    expect(bodies).toEqual([{ address: 'bob@example.net' }, { address: 'bob@example.net' }])
  })

  it('lists the log with time, sender, address, destination, size and outcome', async () => {
    serveForwarding()
    const { panel } = await openTab()
    const table = within(await panel.findByRole('table', { name: 'Forwarding log' }))
    expect(table.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Time',
      'From',
      'To',
      'Forwarded to',
      'Size',
      'Outcome',
    ])
    const row = within(rowOf(table, 'info@acme.inf.nz'))
    expect(row.getByText(/Mar 7, 2026/)).toBeInTheDocument()
    expect(row.getByText('news@shop.example')).toBeInTheDocument()
    expect(row.getByText('alice@example.com')).toBeInTheDocument()
    expect(row.getByText('12.5 KB')).toBeInTheDocument()
    expect(row.queryByText('—')).not.toBeInTheDocument()
    expect(row.getByText('Forwarded')).toBeInTheDocument()
    const bounce = within(rowOf(table, 'nobody@acme.inf.nz'))
    // Refused at its address: no sender is kept, nothing forwarded, nothing received.
    expect(bounce.getAllByText('—')).toHaveLength(3)
    expect(bounce.getByText('Refused')).toBeInTheDocument()
    expect(bounce.getByText('No rule forwards this address')).toBeInTheDocument()
    // The phone list carries the same entries.
    expect(within(panel.getByRole('list', { name: 'Forwarding log' })).getAllByRole('listitem')).toHaveLength(2)
  })

  it('says when the log is empty, and reloads it when asked', async () => {
    const state = serveForwarding(forwardingOf(), [])
    const { panel, events } = await openTab()
    expect(await panel.findByText('No messages yet')).toBeInTheDocument()
    state.log = [forwarded]
    await events.click(panel.getByRole('button', { name: 'Refresh the log' }))
    expect(await panel.findByRole('table', { name: 'Forwarding log' })).toBeInTheDocument()
    expect(panel.queryByText('No messages yet')).not.toBeInTheDocument()
  })

  it('says when the log cannot be loaded, and keeps the rest of the tab', async () => {
    serveForwarding()
    server.use(http.get(`${FORWARDING}/log`, () => HttpResponse.json({ success: false }, { status: 500 })))
    const { panel } = await openTab()
    expect(await panel.findByText('Failed to load the forwarding log. Please try again.')).toBeInTheDocument()
    expect(panel.getByRole('table', { name: 'Forwarding rules' })).toBeInTheDocument()
  })
})
