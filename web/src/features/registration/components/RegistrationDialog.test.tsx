import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { Domain } from '@/lib/domains'
import { serverDomain } from '@/test/domainFixtures'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, searchParamOf, server } from '@/test/server'

function serveWallet(balance: number) {
  server.use(http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance, currency: 'USD' } })))
}

function serveCheck(data: Record<string, unknown>) {
  server.use(http.get('/api/domains/check', () => HttpResponse.json({ success: true, data })))
}

const registered = serverDomain({
  id: 41,
  name: 'acme',
  extension: '.inf.nz',
  isPremium: false,
  registeredAt: '2026-03-04T10:00:00Z',
  expiresAt: '2028-03-04T10:00:00Z',
  autoRenew: true,
  price: 8,
})

function created(domain: Domain, balance = 4) {
  return HttpResponse.json(
    {
      success: true,
      data: {
        domain,
        transaction: {
          id: 9,
          type: 'domain_purchase',
          amount: -16,
          status: 'completed',
          paymentMethod: 'wallet',
          description: `Registration of ${domain.name}${domain.extension} for 2 years`,
          domainId: domain.id,
          createdAt: '2026-03-04T10:00:00Z',
        },
        wallet: { balance, currency: 'USD' },
      },
    },
    { status: 201 },
  )
}

/** Searches on the landing page and opens the dialog from the result card. */
async function openFromLanding(
  user = endUser,
  check: Record<string, unknown> = {
    domain: 'acme',
    extension: '.inf.nz',
    available: true,
    isPremium: false,
    price: 8,
  },
) {
  serveCheck(check)
  const view = renderApp(`/?name=${check.domain}&extension=${check.extension}`, { user })
  const result = within(await screen.findByRole('region', { name: 'Search result' }))
  await view.events.click(result.getByRole('button', { name: 'Register Now' }))
  const dialog = within(await screen.findByRole('dialog', { name: 'Register domain' }))
  return { ...view, dialog }
}

function summary(dialog: ReturnType<typeof within>, label: string) {
  return dialog.getByText(label, { selector: 'dt, dt *' }).closest('div')!
}

describe('registration dialog', () => {
  it('shows the name, years, auto-renew, yearly price, total and balance', async () => {
    serveWallet(100)
    const { dialog, events } = await openFromLanding(endUser, {
      domain: 'shop',
      extension: '.biz.ee',
      available: true,
      isPremium: true,
      price: 8.1,
    })
    expect(dialog.getByText('shop')).toBeInTheDocument()
    expect(dialog.getByText('.biz.ee')).toBeInTheDocument()
    expect(dialog.getByText('Premium')).toBeInTheDocument()
    const years = dialog.getByLabelText('Registration period')
    expect(years).toHaveValue('1')
    expect(within(years).getAllByRole('option')).toHaveLength(10)
    expect(dialog.getByLabelText('Auto-renew')).toBeChecked()
    expect(summary(dialog, 'Yearly price')).toHaveTextContent('$8.10')
    expect(summary(dialog, 'Total')).toHaveTextContent('$8.10')
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$100.00'))

    await events.selectOptions(years, '3')
    expect(summary(dialog, 'Total')).toHaveTextContent('$24.30')
    expect(dialog.getByText('$75.70 will remain in your wallet.')).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Register' })).toBeEnabled()
  })

  it('says how much is missing and offers Add funds with the shortfall rounded up and the way back', async () => {
    serveWallet(10)
    const { dialog, events, router } = await openFromLanding(endUser, {
      domain: 'acme',
      extension: '.inf.nz',
      available: true,
      isPremium: false,
      price: 8.25,
    })
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$10.00'))
    expect(dialog.queryByRole('link', { name: 'Add funds' })).not.toBeInTheDocument()

    await events.selectOptions(dialog.getByLabelText('Registration period'), '2')
    expect(summary(dialog, 'Total')).toHaveTextContent('$16.50')
    expect(dialog.getByRole('status')).toHaveTextContent('Your balance is short by $6.50.')
    expect(dialog.getByRole('button', { name: 'Register' })).toBeDisabled()
    const addFunds = dialog.getByRole('link', { name: 'Add funds' })
    expect(new URL(addFunds.getAttribute('href')!, 'http://x').pathname).toBe('/wallet')
    expect(searchParamOf(addFunds, 'tab')).toBe('deposit')
    expect(searchParamOf(addFunds, 'amount')).toBe('7')
    expect(searchParamOf(addFunds, 'return')).toBe('/?name=acme&extension=.inf.nz')

    server.use(http.get('/api/transactions', () => HttpResponse.json({ success: true, data: [] })))
    await events.click(addFunds)
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'))
    expect(router.state.location.search).toMatchObject({ tab: 'deposit', amount: 7 })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(await screen.findByLabelText('Amount (USD)')).toHaveValue(7)
  })

  it("shows the server's 402 message with the Add funds path for the server's shortfall", async () => {
    serveWallet(50)
    server.use(
      http.post('/api/domains', () =>
        HttpResponse.json(
          {
            success: false,
            error:
              'Insufficient funds: this registration costs $16.00 and your balance is $10.00. Add $6.00 to continue.',
            code: 'insufficient_funds',
            needed: 6,
            balance: 10,
          },
          { status: 402 },
        ),
      ),
    )
    const { dialog, events } = await openFromLanding()
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$50.00'))
    await events.selectOptions(dialog.getByLabelText('Registration period'), '2')
    await events.click(dialog.getByRole('button', { name: 'Register' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent(
      'Insufficient funds: this registration costs $16.00 and your balance is $10.00. Add $6.00 to continue.',
    )
    expect(searchParamOf(dialog.getByRole('link', { name: 'Add funds' }), 'amount')).toBe('6')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  it('takes the shortfall from the 402 fields, never from the wording of its message', async () => {
    serveWallet(50)
    server.use(
      http.post('/api/domains', () =>
        HttpResponse.json(
          {
            success: false,
            error: 'Your wallet cannot pay for this.',
            code: 'insufficient_funds',
            needed: 12.01,
            balance: 3.99,
          },
          { status: 402 },
        ),
      ),
    )
    const { dialog, events } = await openFromLanding()
    await waitFor(() => expect(summary(dialog, 'Wallet balance')).toHaveTextContent('$50.00'))
    await events.click(dialog.getByRole('button', { name: 'Register' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('Your wallet cannot pay for this.')
    expect(searchParamOf(dialog.getByRole('link', { name: 'Add funds' }), 'amount')).toBe('13')
  })

  it("says 'This name is no longer available' on 409, with the server's message", async () => {
    serveWallet(50)
    server.use(
      http.post('/api/domains', () =>
        HttpResponse.json({ success: false, error: 'acme.inf.nz is no longer available' }, { status: 409 }),
      ),
    )
    const { dialog, events } = await openFromLanding()
    await events.click(dialog.getByRole('button', { name: 'Register' }))
    const alert = await dialog.findByRole('alert')
    expect(alert).toHaveTextContent('This name is no longer available')
    expect(alert).toHaveTextContent('acme.inf.nz is no longer available')
    expect(dialog.getByRole('button', { name: 'Register' })).toBeDisabled()
  })

  it('reuses one Idempotency-Key for retries, then registers, refreshes and opens the domain', async () => {
    serveWallet(20)
    const sent: Array<{ key: string | null; body: unknown }> = []
    let attempt = 0
    server.use(
      http.post('/api/domains', async ({ request }) => {
        sent.push({ key: request.headers.get('Idempotency-Key'), body: await request.json() })
        attempt++
        if (attempt === 1) return HttpResponse.json({ success: false, error: 'Database is busy' }, { status: 503 })
        if (attempt === 2) return HttpResponse.error()
        return created(registered)
      }),
      http.get('/api/domains/41', () => HttpResponse.json({ success: true, data: registered })),
    )
    const { dialog, events, router, queryClient } = await openFromLanding()
    queryClient.setQueryData(['/api/transactions'], [])
    queryClient.setQueryData(['/api/domains'], [])
    await events.selectOptions(dialog.getByLabelText('Registration period'), '2')
    await events.click(dialog.getByLabelText('Auto-renew'))

    await events.click(dialog.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('Registration failed')).toBeInTheDocument()
    expect(screen.getByText('Database is busy')).toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument()

    await events.click(dialog.getByRole('button', { name: 'Register' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/domain-management/41'))
    expect(await screen.findByText('Domain registered')).toBeInTheDocument()
    expect(screen.getByText('acme.inf.nz is yours until Mar 4, 2028.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'acme.inf.nz', level: 1 })).toBeInTheDocument()

    expect(sent).toHaveLength(3)
    expect(sent[0].key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(sent.map((request) => request.key)).size).toBe(1)
    expect(sent[2].body).toEqual({ name: 'acme', extension: '.inf.nz', years: 2, autoRenew: false })
    expect(queryClient.getQueryState(['/api/transactions'])?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(['/api/domains'])?.isInvalidated).toBe(true)
  })

  it('uses a new key for a new dialog', async () => {
    serveWallet(20)
    const keys: Array<string | null> = []
    server.use(
      http.post('/api/domains', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        return HttpResponse.json({ success: false, error: 'Try later' }, { status: 500 })
      }),
    )
    const { dialog, events } = await openFromLanding()
    await events.click(dialog.getByRole('button', { name: 'Register' }))
    await screen.findByText('Try later')
    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await events.click(
      within(screen.getByRole('region', { name: 'Search result' })).getByRole('button', { name: 'Register Now' }),
    )
    const again = within(await screen.findByRole('dialog', { name: 'Register domain' }))
    await events.click(again.getByRole('button', { name: 'Register' }))
    await waitFor(() => expect(keys).toHaveLength(2))
    expect(keys[0]).not.toBe(keys[1])
  })

  it('searches and registers from the dashboard', async () => {
    serveWallet(30)
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    serveCheck({ domain: 'newco', extension: '.orgn.uk', available: true, isPremium: false, price: 8 })
    const { events } = renderApp('/registrar-dashboard', { user: registrar })
    await events.click(await screen.findByRole('button', { name: 'Register Domain' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Register a domain' }))

    await events.click(dialog.getByRole('button', { name: 'Search' }))
    expect(await dialog.findByText('Domain name is required')).toBeInTheDocument()
    await events.type(dialog.getByLabelText('Domain name'), '-bad')
    await events.click(dialog.getByRole('button', { name: 'Search' }))
    expect(await dialog.findByText(/can only contain letters, numbers, and hyphens/)).toBeInTheDocument()

    await events.clear(dialog.getByLabelText('Domain name'))
    await events.type(dialog.getByLabelText('Domain name'), 'newco')
    await events.selectOptions(dialog.getByLabelText('Extension'), '.orgn.uk')
    await events.click(dialog.getByRole('button', { name: 'Search' }))
    const result = within(await dialog.findByRole('region', { name: 'Search result' }))
    expect(result.getByText('newco.orgn.uk')).toBeInTheDocument()
    await events.click(result.getByRole('button', { name: 'Continue' }))

    const register = within(await screen.findByRole('dialog', { name: 'Register domain' }))
    expect(register.getByText('newco')).toBeInTheDocument()
    await waitFor(() => expect(summary(register, 'Wallet balance')).toHaveTextContent('$30.00'))
    await events.click(register.getByRole('button', { name: 'Back to search' }))
    expect(await screen.findByRole('dialog', { name: 'Register a domain' })).toBeInTheDocument()
  })

  it('says when a searched name is taken', async () => {
    server.use(http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })))
    serveCheck({
      domain: 'home',
      extension: '.inf.nz',
      available: false,
      isPremium: true,
      price: 600,
      reason: 'premium_reserved',
    })
    const { events } = renderApp('/dashboard', { user: endUser })
    await events.click(await screen.findByRole('button', { name: 'Register Domain' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Register a domain' }))
    await events.type(dialog.getByLabelText('Domain name'), 'home')
    await events.click(dialog.getByRole('button', { name: 'Search' }))
    const result = within(await dialog.findByRole('region', { name: 'Search result' }))
    expect(result.getByRole('button', { name: 'Not Available' })).toBeDisabled()
    expect(result.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument()
  })
})
