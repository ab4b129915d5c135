import { screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, rules, server } from '@/test/server'
import { filterTransactions, noFilters, walletTotals, type Transaction } from '../api/wallet'

const transactions: Transaction[] = [
  {
    id: 3,
    type: 'domain_purchase',
    amount: -8,
    status: 'completed',
    paymentMethod: 'wallet',
    description: 'Registration of acme.inf.nz for 1 year',
    domainId: 7,
    createdAt: '2025-06-02T10:00:00Z',
  },
  {
    id: 2,
    type: 'deposit',
    amount: 20,
    status: 'pending',
    paymentMethod: 'paypal',
    description: 'Deposit by PayPal',
    domainId: null,
    createdAt: '2025-06-01T10:00:00Z',
  },
  {
    id: 1,
    type: 'deposit',
    amount: 50.1,
    status: 'completed',
    paymentMethod: 'credit_card',
    description: 'Deposit by credit card',
    domainId: null,
    createdAt: '2025-05-01T10:00:00Z',
  },
]

function serveWallet(balance: number, list: Transaction[] = transactions) {
  server.use(
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance, currency: 'USD' } })),
    http.get('/api/transactions', () => HttpResponse.json({ success: true, data: list })),
  )
}

describe('wallet overview', () => {
  it('shows the balance, totals and recent transactions, with the way back to the dashboard', async () => {
    serveWallet(42.1)
    renderApp('/wallet', { user: endUser })
    expect(await screen.findByRole('heading', { name: 'Wallet', level: 1 })).toBeInTheDocument()
    const balance = within(screen.getByRole('region', { name: 'Current balance' }))
    expect(await balance.findByText('$42.10')).toBeInTheDocument()
    expect(balance.getByText('USD')).toBeInTheDocument()
    expect(await balance.findByText('$50.10')).toBeInTheDocument() // total deposited: completed deposits only
    expect(balance.getByText('$8.00')).toBeInTheDocument() // total spent
    const recent = within(screen.getByRole('region', { name: 'Recent transactions' }))
    expect(recent.getByText('Registration of acme.inf.nz for 1 year')).toBeInTheDocument()
    expect(recent.getByText('Pending')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard')
    const actions = within(screen.getByRole('region', { name: 'Quick Actions' }))
    expect(actions.queryByRole('link', { name: 'API Settings' })).not.toBeInTheDocument()
    expect(actions.getByRole('link', { name: 'Manage Domains' })).toHaveAttribute('href', '/dashboard')
    expect(actions.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/#contact')
  })

  it('lists only the five most recent transactions', async () => {
    const many = Array.from({ length: 7 }, (_, index) => ({
      ...transactions[2],
      id: 100 - index,
      description: `Deposit number ${7 - index}`,
    }))
    serveWallet(10, many)
    renderApp('/wallet', { user: endUser })
    const recent = within(await screen.findByRole('region', { name: 'Recent transactions' }))
    expect(await recent.findAllByRole('listitem')).toHaveLength(5)
    expect(recent.getByText('Deposit number 7')).toBeInTheDocument()
    expect(recent.queryByText('Deposit number 2')).not.toBeInTheDocument()
  })

  it('moves to the other tabs with View All and Deposit Funds', async () => {
    serveWallet(10)
    const { events, router } = renderApp('/wallet', { user: endUser })
    const recent = within(await screen.findByRole('region', { name: 'Recent transactions' }))
    await events.click(recent.getByRole('button', { name: /View All/ }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'transactions' }))
    expect(await screen.findByRole('table', { name: 'Transactions' })).toBeInTheDocument()
    await events.click(screen.getByRole('tab', { name: 'Overview' }))
    const balance = within(await screen.findByRole('region', { name: 'Current balance' }))
    await events.click(balance.getByRole('button', { name: 'Deposit Funds' }))
    await waitFor(() => expect(router.state.location.search).toEqual({ tab: 'deposit' }))
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue(50)
  })

  it('shows the load error instead of a balance, and the registrar shortcuts', async () => {
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: false, error: 'boom' }, { status: 500 })),
      http.get('/api/transactions', () => HttpResponse.json({ success: true, data: [] })),
    )
    renderApp('/wallet', { user: registrar })
    expect(await screen.findByText('Failed to load your wallet. Please try again.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/registrar-dashboard')
    const actions = within(screen.getByRole('region', { name: 'Quick Actions' }))
    expect(actions.getByRole('link', { name: 'API Settings' })).toHaveAttribute('href', '/registrar-dashboard?tab=api')
    expect(actions.getByRole('link', { name: 'Manage Domains' })).toHaveAttribute('href', '/registrar-dashboard')
    expect(await screen.findByText('No transactions yet.')).toBeInTheDocument()
  })

  it('adds up completed money only, in cents', () => {
    expect(
      walletTotals([
        ...transactions,
        {
          id: 4,
          type: 'deposit',
          amount: 0.1,
          status: 'completed',
          paymentMethod: 'upi',
          createdAt: '',
          description: '',
          domainId: null,
        },
        {
          id: 5,
          type: 'deposit',
          amount: 0.2,
          status: 'completed',
          paymentMethod: 'upi',
          createdAt: '',
          description: '',
          domainId: null,
        },
        {
          id: 6,
          type: 'domain_renewal',
          amount: -8,
          status: 'failed',
          paymentMethod: 'wallet',
          createdAt: '',
          description: '',
          domainId: null,
        },
      ]),
    ).toEqual({ deposited: 50.4, spent: 8 })
  })
})

describe('deposit', () => {
  it('starts at $50 by credit card, with quick amounts, a $0.00 fee and the total', async () => {
    serveWallet(0, [])
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    const amount = await screen.findByLabelText('Amount (USD)')
    expect(amount).toHaveValue(50)
    expect(amount).toHaveAttribute('step', '0.01')
    // The limits are the server's (GET /api/rules).
    await waitFor(() => expect(amount).toHaveAttribute('min', String(rules.deposits.minAmount)))
    expect(amount).toHaveAttribute('max', String(rules.deposits.maxAmount))
    expect(await screen.findByRole('radio', { name: 'Credit Card' })).toBeChecked()
    for (const label of ['PayPal', 'Bank Transfer', 'UPI']) {
      expect(screen.getByRole('radio', { name: label })).not.toBeChecked()
    }
    expect(screen.getByText('Processing fee:').closest('div')).toHaveTextContent('Processing fee:$0.00')
    expect(screen.getByText('Total:').closest('div')).toHaveTextContent('$50.00')

    const quick = within(screen.getByRole('group', { name: 'Quick amounts' }))
    expect(quick.getAllByRole('button').map((button) => button.textContent)).toEqual(['$20', '$50', '$100', '$200'])
    expect(quick.getByRole('button', { name: '$50' })).toHaveAttribute('aria-pressed', 'true')
    await events.click(quick.getByRole('button', { name: '$200' }))
    expect(amount).toHaveValue(200)
    expect(quick.getByRole('button', { name: '$200' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByText('Total:').closest('div')).toHaveTextContent('$200.00')
    expect(screen.getByRole('button', { name: 'Deposit $200.00' })).toBeInTheDocument()
  })

  it("says 'Amount must be greater than 0' and the server's limits, and sends nothing", async () => {
    serveWallet(0, [])
    let asked = 0
    server.use(
      http.post('/api/wallet/deposit', () => {
        asked++
        return HttpResponse.json({ success: false, error: 'unexpected' }, { status: 422 })
      }),
    )
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    const amount = await screen.findByLabelText('Amount (USD)')
    // The messages and limits are the server's (GET /api/rules).
    const { notPositiveMessage, tooSmallMessage, tooLargeMessage, decimalsMessage, minAmount, maxAmount } =
      rules.deposits
    await waitFor(() => expect(screen.getByRole('button', { name: /^Deposit( \$|$)/ })).toBeEnabled())
    for (const [typed, message] of [
      ['', notPositiveMessage],
      ['0', notPositiveMessage],
      ['-5', notPositiveMessage],
      [String(minAmount - 0.5), tooSmallMessage],
      [String(maxAmount + 0.01), tooLargeMessage],
      ['12.345', decimalsMessage],
      ['1.000000001', decimalsMessage],
    ]) {
      await events.clear(amount)
      if (typed) await events.type(amount, typed)
      await events.click(screen.getByRole('button', { name: /^Deposit( \$|$)/ }))
      expect(await screen.findByRole('alert')).toHaveTextContent(message)
    }
    expect(asked).toBe(0)
  })

  it('shows processing, then the success screen, and refreshes the wallet', async () => {
    serveWallet(0, [])
    let body: unknown
    let balance = 0
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance, currency: 'USD' } })),
      http.post('/api/wallet/deposit', async ({ request }) => {
        body = await request.json()
        await delay(50)
        balance = 75.5
        return HttpResponse.json(
          {
            success: true,
            data: {
              transaction: {
                id: 12,
                type: 'deposit',
                amount: 75.5,
                status: 'completed',
                paymentMethod: 'upi',
                description: 'Deposit by UPI',
                domainId: null,
                createdAt: '2026-01-01T00:00:00Z',
              },
              wallet: { balance: 75.5, currency: 'USD' },
            },
          },
          { status: 201 },
        )
      }),
    )
    const { events, router } = renderApp('/wallet?tab=deposit', { user: endUser })
    const amount = await screen.findByLabelText('Amount (USD)')
    await events.clear(amount)
    await events.type(amount, '75.5')
    await events.click(screen.getByRole('radio', { name: 'UPI' }))
    await events.click(await screen.findByRole('button', { name: 'Deposit $75.50' }))
    expect(await screen.findByText('Processing your deposit...')).toBeInTheDocument()
    expect(await screen.findByText('$75.50 has been added to your wallet')).toBeInTheDocument()
    expect(body).toEqual({ amount: 75.5, paymentMethod: 'upi' })
    expect(screen.queryByRole('link', { name: /Continue registration/ })).not.toBeInTheDocument()

    await events.click(screen.getByRole('button', { name: 'Back to Overview' }))
    await waitFor(() => expect(router.state.location.search).toEqual({}))
    const card = within(await screen.findByRole('region', { name: 'Current balance' }))
    expect(await card.findByText('$75.50')).toBeInTheDocument()
  })

  it('takes ?amount= and offers Continue registration for ?return=', async () => {
    serveWallet(2, [])
    server.use(
      http.post('/api/wallet/deposit', () =>
        HttpResponse.json(
          {
            success: true,
            data: {
              transaction: {
                id: 13,
                type: 'deposit',
                amount: 7,
                status: 'completed',
                paymentMethod: 'credit_card',
                description: 'Deposit by credit card',
                domainId: null,
                createdAt: '2026-01-01T00:00:00Z',
              },
              wallet: { balance: 9, currency: 'USD' },
            },
          },
          { status: 201 },
        ),
      ),
      http.get('/api/domains/check', () =>
        HttpResponse.json({
          success: true,
          data: { domain: 'acme', extension: '.inf.nz', available: true, isPremium: false, price: 8 },
        }),
      ),
    )
    const back = encodeURIComponent('/?name=acme&extension=.inf.nz')
    const { events, router } = renderApp(`/wallet?tab=deposit&amount=7&return=${back}`, { user: endUser })
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue(7)
    await events.click(await screen.findByRole('button', { name: 'Deposit $7.00' }))
    expect(await screen.findByText('$7.00 has been added to your wallet')).toBeInTheDocument()
    const next = screen.getByRole('link', { name: /Continue registration/ })
    expect(next).toHaveAttribute('href', '/?name=acme&extension=.inf.nz')
    await events.click(next)
    await waitFor(() => expect(router.state.location.pathname).toBe('/'))
    expect(await screen.findByRole('region', { name: 'Search result' })).toHaveTextContent('acme.inf.nz')
  })

  it('ignores a ?return= to another site', async () => {
    serveWallet(0, [])
    const { router } = renderApp(`/wallet?tab=deposit&return=${encodeURIComponent('//evil.example')}`, {
      user: endUser,
    })
    await screen.findByLabelText('Amount (USD)')
    expect(router.state.location.search).toEqual({ tab: 'deposit' })
  })

  it('says a deposit is pending when the payment provider has yet to confirm it', async () => {
    serveWallet(0, [])
    server.use(
      http.post('/api/wallet/deposit', () =>
        HttpResponse.json(
          {
            success: true,
            data: {
              transaction: {
                id: 14,
                type: 'deposit',
                amount: 50,
                status: 'pending',
                paymentMethod: 'bank_transfer',
                description: 'Deposit by bank transfer',
                domainId: null,
                createdAt: '2026-01-01T00:00:00Z',
              },
              wallet: { balance: 0, currency: 'USD' },
            },
          },
          { status: 201 },
        ),
      ),
    )
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    await events.click(await screen.findByRole('radio', { name: 'Bank Transfer' }))
    await events.click(await screen.findByRole('button', { name: 'Deposit $50.00' }))
    expect(await screen.findByText('Deposit pending')).toBeInTheDocument()
    expect(screen.getByText(/Your deposit of \$50\.00 is pending confirmation/)).toBeInTheDocument()
    expect(screen.queryByText('$50.00 has been added to your wallet')).not.toBeInTheDocument()
  })

  it("shows 'Deposit failed' with the server's error, or the fallbacks", async () => {
    serveWallet(0, [])
    const answers = [
      () => HttpResponse.json({ success: false, error: 'The maximum deposit is $10,000.00' }, { status: 422 }),
      () => new HttpResponse(null, { status: 500 }),
      () => HttpResponse.error(),
    ]
    let call = 0
    server.use(http.post('/api/wallet/deposit', () => answers[call++]()))
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    const submit = async () => events.click(await screen.findByRole('button', { name: 'Deposit $50.00' }))
    await submit()
    expect(await screen.findByText('Deposit failed')).toBeInTheDocument()
    expect(screen.getByText('The maximum deposit is $10,000.00')).toBeInTheDocument()
    await submit()
    expect(await screen.findByText('Failed to process deposit')).toBeInTheDocument()
    await submit()
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument()
    // The form stays for another try.
    expect(screen.getByLabelText('Amount (USD)')).toHaveValue(50)
  })

  it('pays a card deposit through Stripe with the card form, a decline first, then completes it', async () => {
    let balance = 0
    let status = 'pending'
    const confirmed: unknown[] = []
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance, currency: 'USD' } })),
      http.get('/api/transactions', () =>
        HttpResponse.json({ success: true, data: [{ ...transactions[2], id: 9, amount: 50, status }] }),
      ),
      http.get('/api/payments/config', () =>
        HttpResponse.json({ success: true, data: { mode: 'stripe', publishableKey: '', testMode: true } }),
      ),
      http.post('/api/wallet/deposit', () =>
        HttpResponse.json(
          {
            success: true,
            data: {
              transaction: { ...transactions[2], id: 9, amount: 50, status: 'pending' },
              wallet: { balance: 0, currency: 'USD' },
              clientSecret: 'pi_123_secret_456',
              paymentIntentId: 'pi_123',
            },
          },
          { status: 201 },
        ),
      ),
      http.post('/api/payments/confirm-test', async ({ request }) => {
        const body = (await request.json()) as { cardNumber: string; paymentIntentId: string }
        confirmed.push(body)
        if (body.cardNumber.startsWith('4000')) {
          return HttpResponse.json({ success: true, data: { status: 'failed', message: 'Your card was declined.' } })
        }
        balance = 50
        status = 'completed'
        return HttpResponse.json({
          success: true,
          data: { status: 'succeeded', message: 'Thank you for your payment!' },
        })
      }),
    )
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    await events.click(await screen.findByRole('button', { name: 'Deposit $50.00' }))
    expect(await screen.findByText(/into your Nameport wallet/)).toBeInTheDocument()

    const pay = async (number: string) => {
      await events.clear(screen.getByLabelText('Card number'))
      await events.type(screen.getByLabelText('Card number'), number)
      await events.clear(screen.getByLabelText('Expiry'))
      await events.type(screen.getByLabelText('Expiry'), '1240')
      await events.clear(screen.getByLabelText('CVC'))
      await events.type(screen.getByLabelText('CVC'), '123')
      await events.click(screen.getByRole('button', { name: 'Pay Now' }))
    }
    await pay('4000000000000002')
    expect(await screen.findByText('Your card was declined.')).toBeInTheDocument()
    await pay('4242424242424242')
    expect(await screen.findByText('Deposit successful')).toBeInTheDocument()
    expect(screen.getByText('$50.00 has been added to your wallet')).toBeInTheDocument()
    expect(confirmed).toEqual([
      { paymentIntentId: 'pi_123', clientSecret: 'pi_123_secret_456', cardNumber: '4000 0000 0000 0002' },
      { paymentIntentId: 'pi_123', clientSecret: 'pi_123_secret_456', cardNumber: '4242 4242 4242 4242' },
    ])
  })

  it('retries the same deposit under the same Idempotency-Key, and a new amount under a new one', async () => {
    serveWallet(0, [])
    const keys: (string | null)[] = []
    server.use(
      http.post('/api/wallet/deposit', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        return HttpResponse.error()
      }),
    )
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    const submit = async () => events.click(await screen.findByRole('button', { name: /^Deposit \$/ }))
    await submit()
    await waitFor(() => expect(keys).toHaveLength(1))
    await submit()
    await waitFor(() => expect(keys).toHaveLength(2))
    const amount = screen.getByLabelText('Amount (USD)')
    await events.clear(amount)
    await events.type(amount, '60')
    await submit()
    await waitFor(() => expect(keys).toHaveLength(3))
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(keys[1]).toBe(keys[0])
    expect(keys[2]).not.toBe(keys[0])
  })
})

describe('transactions tab', () => {
  function rows() {
    const table = screen.getByRole('table', { name: 'Transactions' })
    return within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1].textContent)
  }

  it('lists every transaction with date, description, type, method, status and signed amount', async () => {
    serveWallet(42.1)
    renderApp('/wallet?tab=transactions', { user: endUser })
    const table = within(await screen.findByRole('table', { name: 'Transactions' }))
    expect(table.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Date',
      'Description',
      'Type',
      'Method',
      'Status',
      'Amount',
    ])
    const purchase = within(table.getByText('Registration of acme.inf.nz for 1 year').closest('tr')!)
    expect(purchase.getByText('Domain purchase')).toBeInTheDocument()
    expect(purchase.getByText('Wallet')).toBeInTheDocument()
    expect(purchase.getByText('Completed')).toBeInTheDocument()
    expect(purchase.getByText('−$8.00')).toHaveClass('text-red-600')
    const deposit = within(table.getByText('Deposit by credit card').closest('tr')!)
    expect(deposit.getByText('Credit Card')).toBeInTheDocument()
    expect(deposit.getByText('+$50.10')).toHaveClass('text-emerald-700')
    expect(within(table.getByText('Deposit by PayPal').closest('tr')!).getByText('Pending')).toBeInTheDocument()
  })

  it('filters by search, status and type, and resets', async () => {
    serveWallet(42.1, [
      ...transactions,
      {
        id: 4,
        type: 'domain_renewal',
        amount: -8,
        status: 'failed',
        paymentMethod: 'wallet',
        description: 'Renewal of acme.inf.nz for 1 year',
        domainId: 7,
        createdAt: '2025-07-01T10:00:00Z',
      },
    ])
    const { events } = renderApp('/wallet?tab=transactions', { user: endUser })
    await screen.findByRole('table', { name: 'Transactions' })
    const search = screen.getByLabelText('Search')
    const status = screen.getByLabelText('Status')
    const type = screen.getByLabelText('Type')
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Completed', 'Pending'])
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Deposits', 'Purchases'])

    await events.selectOptions(type, 'deposits')
    expect(rows()).toEqual(['Deposit by PayPal', 'Deposit by credit card'])
    await events.selectOptions(type, 'purchases')
    expect(rows()).toEqual(['Registration of acme.inf.nz for 1 year', 'Renewal of acme.inf.nz for 1 year'])
    await events.selectOptions(status, 'completed')
    expect(rows()).toEqual(['Registration of acme.inf.nz for 1 year'])
    await events.selectOptions(status, 'pending')
    expect(screen.getByText('No transactions match your filters')).toBeInTheDocument()

    await events.click(screen.getByRole('button', { name: 'Reset' }))
    expect(status).toHaveValue('all')
    expect(type).toHaveValue('all')
    expect(rows()).toHaveLength(4)

    await events.type(search, 'paypal')
    expect(rows()).toEqual(['Deposit by PayPal'])
    await events.clear(search)
    await events.type(search, '50.10')
    expect(rows()).toEqual(['Deposit by credit card'])
    await events.clear(search)
    await events.type(search, '#3')
    expect(rows()).toEqual(['Registration of acme.inf.nz for 1 year'])
    await events.clear(search)
    await events.type(search, 'Bank Transfer')
    expect(screen.getByText('No transactions match your filters')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Reset filters' }))
    expect(search).toHaveValue('')
    expect(rows()).toHaveLength(4)
  })

  it('matches method labels, amounts and ids, and treats unknown statuses as failed', () => {
    const list: Transaction[] = [
      ...transactions,
      {
        id: 77,
        type: 'withdrawal',
        amount: -5,
        // A status outside the schema: the page reads it as failed.
        status: 'refused' as Transaction['status'],
        paymentMethod: 'bank_transfer',
        createdAt: '',
        description: '',
        domainId: null,
      },
    ]
    const find = (q: string, rest: Partial<typeof noFilters> = {}) =>
      filterTransactions(list, { ...noFilters, q, ...rest }).map((t) => t.id)
    expect(find('credit card')).toEqual([1])
    expect(find('$8.00')).toEqual([3])
    expect(find('77')).toEqual([77])
    expect(find('', { status: 'pending' })).toEqual([2])
    expect(find('', { status: 'completed' })).toEqual([3, 1])
    expect(find('', { type: 'purchases' })).toEqual([3])
  })
})

describe('deposit options', () => {
  const options = (data: object) =>
    http.get('/api/wallet/deposit-options', () => HttpResponse.json({ success: true, data }))

  it('says deposits are unavailable when the server has no payment method, and offers no form', async () => {
    serveWallet(0, [])
    server.use(options({ mode: 'none', methods: [], instant: [], bankTransfer: null }))
    renderApp('/wallet?tab=deposit', { user: endUser })
    expect(await screen.findByText('Deposits are unavailable')).toBeInTheDocument()
    expect(screen.queryByLabelText('Amount (USD)')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Deposit \$/ })).not.toBeInTheDocument()
  })

  it('offers only bank transfer in manual mode and shows where to pay once the deposit is pending', async () => {
    serveWallet(0, [])
    let body: unknown
    server.use(
      options({
        mode: 'manual',
        methods: ['bank_transfer'],
        instant: [],
        bankTransfer: {
          accountName: 'Nameport Ltd',
          accountNumber: '12-3456-7890123-00',
          bankName: 'Kiwi Bank',
          routingNumber: '123456',
          instructions: 'Put your username in the reference.',
        },
      }),
      http.post('/api/wallet/deposit', async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(
          {
            success: true,
            data: {
              transaction: {
                id: 5,
                type: 'deposit',
                amount: 50,
                status: 'pending',
                paymentMethod: 'bank_transfer',
                description: 'Deposit by bank transfer',
                domainId: null,
                createdAt: '2026-01-01T00:00:00Z',
              },
              wallet: { balance: 0, currency: 'USD' },
            },
          },
          { status: 201 },
        )
      }),
    )
    const { events } = renderApp('/wallet?tab=deposit', { user: endUser })
    await screen.findByLabelText('Amount (USD)')
    await waitFor(() => expect(screen.queryByRole('radio', { name: 'Credit Card' })).not.toBeInTheDocument())
    expect(screen.getByRole('radio', { name: 'Bank Transfer' })).toBeChecked()
    await events.click(await screen.findByRole('button', { name: 'Deposit $50.00' }))
    expect(await screen.findByText('Deposit pending')).toBeInTheDocument()
    expect(body).toEqual({ amount: 50, paymentMethod: 'bank_transfer' })
    expect(screen.getByText('12-3456-7890123-00')).toBeInTheDocument()
    expect(screen.getByText('Put your username in the reference.')).toBeInTheDocument()
  })
})
