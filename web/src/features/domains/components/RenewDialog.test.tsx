import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Domain } from '@/lib/domains'
import { renderApp } from '@/test/renderApp'
import { endUser, searchParamOf, server } from '@/test/server'

const expired: Domain = {
  id: 5,
  name: 'shop',
  extension: '.biz.ee',
  isPremium: false,
  registeredAt: '2025-11-01T10:00:00Z',
  expiresAt: '2026-11-01T10:00:00Z',
  autoRenew: false,
  price: 8,
  status: 'expired',
  graceEndsAt: '2026-12-01T10:00:00Z',
  renewalPrice: 10,
  renewalPeriodDays: 365,
  renewedExpiresAt: '2027-11-01T10:00:00Z',
}

const renewed: Domain = {
  ...expired,
  expiresAt: '2027-11-01T10:00:00Z',
  status: 'active',
  graceEndsAt: '2027-12-01T10:00:00Z',
  renewedExpiresAt: '2028-11-01T10:00:00Z',
}

function serveDomain(domain: () => Domain) {
  server.use(
    http.get('/api/domains/5', () => HttpResponse.json({ success: true, data: domain() })),
    http.get('/api/domains/5/dns', () => HttpResponse.json({ success: true, data: [] })),
  )
}

function serveWallet(balance: () => number) {
  server.use(
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: balance(), currency: 'USD' } })),
  )
}

function renewedAnswer(balance: number) {
  return HttpResponse.json({
    success: true,
    data: {
      domain: renewed,
      transaction: {
        id: 31,
        type: 'domain_renewal',
        amount: -10,
        status: 'completed',
        paymentMethod: 'wallet',
        description: 'Renewal of shop.biz.ee for 365 days',
        domainId: 5,
        createdAt: '2026-11-22T12:00:00Z',
      },
      wallet: { balance, currency: 'USD' },
    },
  })
}

async function openPage() {
  const view = renderApp('/domain-management/5', { user: endUser })
  await screen.findByRole('heading', { name: 'shop.biz.ee', level: 1 })
  return view
}

async function openDialog(events: ReturnType<typeof renderApp>['events']) {
  await events.click(screen.getByRole('button', { name: 'Renew' }))
  return within(await screen.findByRole('dialog', { name: 'Renew domain' }))
}

function summary(dialog: ReturnType<typeof within>, label: string) {
  return dialog.getByText(label, { selector: 'dt' }).closest('div')!
}

describe('renewing a domain', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-22T12:00:00Z'))
  })
  afterEach(() => vi.useRealTimers())

  it('shows an expired domain with its status, auto-renew state and the grace banner', async () => {
    serveDomain(() => expired)
    await openPage()
    expect(screen.getByText('Expired', { selector: 'span' })).toBeInTheDocument()
    expect(screen.getByText('grace until Dec 1, 2026')).toBeInTheDocument()
    expect(screen.getByText('Auto-renew').nextElementSibling).toHaveTextContent('Off')
    const banner = screen.getByRole('alert')
    expect(banner).toHaveTextContent('This domain has expired')
    expect(banner).toHaveTextContent(
      'It stopped resolving on Nov 1, 2026. Renew it before Dec 1, 2026 or it will be released and anyone can register it.',
    )
  })

  it('shows no banner for an active domain, and still offers Renew', async () => {
    serveDomain(() => renewed)
    await openPage()
    expect(screen.getByText('Active')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Renew' })).toBeEnabled()
  })

  it('confirms the price, period, new expiry and balance, renews, says so and refreshes', async () => {
    let current = expired
    let balance = 25
    const sent: { key: string | null; body: unknown }[] = []
    serveDomain(() => current)
    serveWallet(() => balance)
    server.use(
      http.post('/api/domains/5/renew', async ({ request }) => {
        sent.push({ key: request.headers.get('Idempotency-Key'), body: await request.json() })
        current = renewed
        balance = 15
        return renewedAnswer(15)
      }),
    )
    const { events, queryClient } = await openPage()
    queryClient.setQueryData(['/api/domains'], [expired])
    queryClient.setQueryData(['/api/transactions'], [])

    const dialog = await openDialog(events)
    expect(summary(dialog, 'Renewal period')).toHaveTextContent('1 year')
    expect(summary(dialog, 'Current expiry')).toHaveTextContent('Nov 1, 2026')
    expect(summary(dialog, 'New expiry')).toHaveTextContent('Nov 1, 2027')
    expect(summary(dialog, 'Price')).toHaveTextContent('$10.00')
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$25.00'))
    expect(dialog.getByText('$15.00 will remain in your wallet.')).toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Renew for $10.00' }))
    expect(await screen.findByText('Domain renewed')).toBeInTheDocument()
    expect(screen.getByText('shop.biz.ee now expires on Nov 1, 2027.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(sent).toHaveLength(1)
    expect(sent[0].body).toEqual({})
    expect(sent[0].key).toMatch(/^[0-9a-f-]{36}$/)

    // The page shows the renewed domain; the list, wallet and history are fetched again.
    await waitFor(() => expect(screen.queryByText('This domain has expired')).not.toBeInTheDocument())
    expect(screen.getByText('Active')).toBeInTheDocument()
    expect(screen.getAllByText('Nov 1, 2027').length).toBeGreaterThan(0)
    // Nothing shows the list or the history here: marked stale, they load afresh where shown.
    expect(queryClient.getQueryState(['/api/domains'])?.isInvalidated).toBe(true)
    expect(queryClient.getQueryData(['/api/wallet'])).toEqual({ balance: 15, currency: 'USD' })
    expect(queryClient.getQueryState(['/api/transactions'])?.isInvalidated).toBe(true)
  })

  /** Opens the dialog of the expired domain with $12 in the wallet and renews; the server answers 402 with body. */
  async function renewRefusedWith402(body: { error: string; needed: number; balance: number }) {
    serveDomain(() => expired)
    serveWallet(() => 12)
    server.use(
      http.post('/api/domains/5/renew', () =>
        HttpResponse.json({ success: false, code: 'insufficient_funds', ...body }, { status: 402 }),
      ),
    )
    const { events } = await openPage()
    const dialog = await openDialog(events)
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$12.00'))
    await events.click(dialog.getByRole('button', { name: 'Renew for $10.00' }))
    return dialog
  }

  it("shows the server's 402 message with the way to add funds", async () => {
    // The balance read looks enough; the server knows better (a payment elsewhere).
    const dialog = await renewRefusedWith402({
      error: 'Insufficient funds: renewing costs $10.00 and your balance is $4.00. Add $6.00 to continue.',
      needed: 6,
      balance: 4,
    })

    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Insufficient funds: renewing costs $10.00 and your balance is $4.00. Add $6.00 to continue.',
    )
    const addFunds = dialog.getByRole('link', { name: 'Add funds' })
    expect(addFunds.getAttribute('href')).toMatch(/^\/wallet\?/)
    expect(searchParamOf(addFunds, 'tab')).toBe('deposit')
    expect(searchParamOf(addFunds, 'amount')).toBe('6')
    expect(searchParamOf(addFunds, 'return')).toBe('/domain-management/5')
    expect(dialog.getByRole('button', { name: 'Renew for $10.00' })).toBeDisabled()
    expect(screen.queryByText('Domain renewed')).not.toBeInTheDocument()
  })

  it('takes the shortfall from the 402 fields, never from the wording of its message', async () => {
    const dialog = await renewRefusedWith402({ error: 'Your wallet cannot pay for this.', needed: 7.5, balance: 2.5 })
    expect(await dialog.findByRole('alert')).toHaveTextContent('Your wallet cannot pay for this.')
    expect(searchParamOf(dialog.getByRole('link', { name: 'Add funds' }), 'amount')).toBe('8')
  })

  it('offers Add funds before renewing when the balance is short', async () => {
    serveDomain(() => expired)
    serveWallet(() => 4)
    const { events } = await openPage()
    const dialog = await openDialog(events)
    expect(await dialog.findByText(/Your balance is short by/)).toHaveTextContent('Your balance is short by $6.00.')
    expect(dialog.getByRole('button', { name: 'Renew for $10.00' })).toBeDisabled()
    expect(searchParamOf(dialog.getByRole('link', { name: 'Add funds' }), 'amount')).toBe('6')
  })

  it("toasts 'Error' with the server's message for other failures, keeping the dialog", async () => {
    serveDomain(() => ({ ...renewed, expiresAt: '2036-01-01T10:00:00Z', status: 'active' }))
    serveWallet(() => 100)
    server.use(
      http.post('/api/domains/5/renew', () =>
        HttpResponse.json(
          { success: false, error: 'A domain can be paid for at most 10 years ahead' },
          { status: 422 },
        ),
      ),
    )
    const { events } = await openPage()
    const dialog = await openDialog(events)
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$100.00'))
    await events.click(dialog.getByRole('button', { name: 'Renew for $10.00' }))
    expect(await screen.findByText('A domain can be paid for at most 10 years ahead')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Renew domain' })).toBeInTheDocument()
  })

  it('sends one Idempotency-Key per opening: the same on a retry, a new one after reopening', async () => {
    const keys: (string | null)[] = []
    serveDomain(() => expired)
    serveWallet(() => 100)
    server.use(
      http.post('/api/domains/5/renew', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        return HttpResponse.json({ success: false, error: 'Temporarily unavailable' }, { status: 503 })
      }),
    )
    const { events } = await openPage()
    let dialog = await openDialog(events)
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$100.00'))
    const renew = () => events.click(dialog.getByRole('button', { name: 'Renew for $10.00' }))
    await renew()
    await waitFor(() => expect(keys).toHaveLength(1))
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Renew for $10.00' })).toBeEnabled())
    await renew()
    await waitFor(() => expect(keys).toHaveLength(2))
    expect(keys[1]).toBe(keys[0])

    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    dialog = await openDialog(events)
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$100.00'))
    await renew()
    await waitFor(() => expect(keys).toHaveLength(3))
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[2]).not.toBe(keys[0])
  })
})
