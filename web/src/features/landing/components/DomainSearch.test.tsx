import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, rules, searchParamOf, server, serverExtensions } from '@/test/server'

// The server's message (GET /api/rules), the spec's words.
const invalidName = rules.domainName.charactersMessage

function answerCheck(data: Record<string, unknown>) {
  server.use(http.get('/api/domains/check', () => HttpResponse.json({ success: true, data })))
}

async function searchFor(events: ReturnType<typeof renderApp>['events'], name: string, extension?: string) {
  const form = within(await screen.findByRole('search', { name: 'Domain search' }))
  if (name) await events.type(form.getByLabelText('Domain name'), name)
  if (extension) await events.selectOptions(form.getByLabelText('Extension'), extension)
  await events.click(form.getByRole('button', { name: 'Search' }))
  return form
}

describe('domain search', () => {
  it('shows an available regular name with its price per year and Register Now', async () => {
    let asked = ''
    server.use(
      http.get('/api/domains/check', ({ request }) => {
        asked = new URL(request.url).search
        return HttpResponse.json({
          success: true,
          data: {
            domain: 'free-name',
            extension: '.inf.nz',
            available: true,
            isPremium: false,
            price: 8,
            renewalPrice: 8,
          },
        })
      }),
    )
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'free-name')
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(asked).toBe('?name=free-name&extension=.inf.nz')
    expect(result.getByText('free-name.inf.nz')).toBeInTheDocument()
    expect(result.getByText('$8.00')).toBeInTheDocument()
    expect(result.getByText(/per year/)).toBeInTheDocument()
    expect(result.queryByText('Premium')).not.toBeInTheDocument()
    // A visitor signs up first and comes back to this search.
    const registerNow = result.getByRole('link', { name: 'Register Now' })
    expect(new URL(registerNow.getAttribute('href')!, 'http://x').pathname).toBe('/register')
    expect(searchParamOf(registerNow)).toBe('/?name=free-name&extension=.inf.nz')
  })

  it('opens the registration dialog for a logged-in end user and registrar', async () => {
    answerCheck({ domain: 'acme', extension: '.inf.nz', available: true, isPremium: false, price: 8 })
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 20, currency: 'USD' } })),
    )
    for (const user of [endUser, registrar]) {
      const view = renderApp('/', { user })
      await searchFor(view.events, 'acme')
      const result = within(await screen.findByRole('region', { name: 'Search result' }))
      await view.events.click(result.getByRole('button', { name: 'Register Now' }))
      const dialog = within(await screen.findByRole('dialog', { name: 'Register domain' }))
      expect(dialog.getByText('acme')).toBeInTheDocument()
      view.unmount()
    }
  })

  it('searches the name in the address as the page opens', async () => {
    let asked = ''
    server.use(
      http.get('/api/domains/check', ({ request }) => {
        asked = new URL(request.url).search
        return HttpResponse.json({
          success: true,
          data: { domain: 'shop', extension: '.biz.ee', available: true, isPremium: true, price: 280 },
        })
      }),
    )
    renderApp('/?name=shop&extension=.biz.ee', { user: null })
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(result.getByText('shop.biz.ee')).toBeInTheDocument()
    expect(asked).toBe('?name=shop&extension=.biz.ee')
    const form = within(screen.getByRole('search', { name: 'Domain search' }))
    expect(form.getByLabelText('Domain name')).toHaveValue('shop')
    expect(form.getByLabelText('Extension')).toHaveValue('.biz.ee')
  })

  it('checks a name from the address like a typed one', async () => {
    let asked = 0
    server.use(
      http.get('/api/domains/check', () => {
        asked++
        return HttpResponse.json({ success: false, error: 'unexpected' }, { status: 422 })
      }),
    )
    renderApp('/?name=-bad-', { user: null })
    expect(await screen.findByText(invalidName)).toBeInTheDocument()
    expect(asked).toBe(0)
  })

  it("reads 'Searching...' and is disabled while waiting", async () => {
    let release: () => void = () => {}
    const answered = new Promise<void>((resolve) => (release = resolve))
    server.use(
      http.get('/api/domains/check', async () => {
        await answered
        return HttpResponse.json({
          success: true,
          data: { domain: 'slow', extension: '.inf.nz', available: true, isPremium: false, price: 8 },
        })
      }),
    )
    const { events } = renderApp('/', { user: null })
    const form = await searchFor(events, 'slow')
    expect(await form.findByRole('button', { name: 'Searching...' })).toBeDisabled()
    release()
    expect(await form.findByRole('button', { name: 'Search' })).toBeEnabled()
    expect(await screen.findByRole('region', { name: 'Search result' })).toBeInTheDocument()
  })

  it('says which names are invalid and sends nothing', async () => {
    let asked = 0
    server.use(
      http.get('/api/domains/check', () => {
        asked++
        return HttpResponse.json({ success: false, error: 'unexpected' }, { status: 422 })
      }),
    )
    const { events } = renderApp('/', { user: null })
    const form = await searchFor(events, '')
    expect(await screen.findByText('Domain name is required')).toBeInTheDocument()
    for (const bad of ['-bad-', 'bad-', 'a b', 'café', 'dot.name']) {
      await events.clear(form.getByLabelText('Domain name'))
      await events.type(form.getByLabelText('Domain name'), bad)
      await events.click(form.getByRole('button', { name: 'Search' }))
      expect(await screen.findByText(invalidName)).toBeInTheDocument()
    }
    expect(asked).toBe(0)
  })

  it('accepts consecutive hyphens and 63 characters, as the pattern does', async () => {
    const asked: string[] = []
    server.use(
      http.get('/api/domains/check', ({ request }) => {
        const name = new URL(request.url).searchParams.get('name') ?? ''
        asked.push(name)
        return HttpResponse.json({
          success: true,
          data: { domain: name.toLowerCase(), extension: '.inf.nz', available: true, isPremium: false, price: 8 },
        })
      }),
    )
    const { events } = renderApp('/', { user: null })
    const form = await searchFor(events, 'a--b')
    await screen.findByRole('region', { name: 'Search result' })
    await events.clear(form.getByLabelText('Domain name'))
    await events.type(form.getByLabelText('Domain name'), 'x'.repeat(64))
    await events.click(form.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('Domain name must be at most 63 characters')).toBeInTheDocument()
    await events.clear(form.getByLabelText('Domain name'))
    await events.type(form.getByLabelText('Domain name'), 'x'.repeat(63))
    await events.click(form.getByRole('button', { name: 'Search' }))
    await screen.findByText(`${'x'.repeat(63)}.inf.nz`)
    expect(asked).toEqual(['a--b', 'x'.repeat(63)])
  })

  it('shows a premium name with its badge and price', async () => {
    answerCheck({
      domain: 'shop',
      extension: '.biz.ee',
      available: true,
      isPremium: true,
      price: 280,
      renewalPrice: 350,
    })
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'shop', '.biz.ee')
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(result.getByText('shop.biz.ee')).toBeInTheDocument()
    expect(result.getByText('Premium')).toBeInTheDocument()
    expect(result.getByText('$280.00')).toBeInTheDocument()
    expect(result.getByText('Renews at $350.00 per year')).toBeInTheDocument()
  })

  it('names the promotion that sets the price', async () => {
    answerCheck({
      domain: 'a-rather-long-name',
      extension: '.orgn.uk',
      available: true,
      isPremium: false,
      price: 6,
      renewalPrice: 8,
      promotion: 'Long names launch offer',
    })
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'a-rather-long-name', '.orgn.uk')
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(result.getByText('$6.00')).toBeInTheDocument()
    expect(result.getByText('Long names launch offer')).toBeInTheDocument()
  })

  it("offers only a disabled 'Not Available' for a reserved premium name", async () => {
    answerCheck({
      domain: 'home',
      extension: '.inf.nz',
      available: false,
      isPremium: true,
      price: 600,
      renewalPrice: 600,
      reason: 'premium_reserved',
    })
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'home')
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(result.getByRole('button', { name: 'Not Available' })).toBeDisabled()
    expect(result.queryByRole('link', { name: 'Register Now' })).not.toBeInTheDocument()
    expect(result.getByText('Reserved')).toBeInTheDocument()
  })

  it("falls back to 'Failed to check domain availability' when the server gives no message", async () => {
    server.use(http.get('/api/domains/check', () => new HttpResponse('boom', { status: 500 })))
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'acme')
    expect(await screen.findByText('Failed to check domain availability')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Search result' })).not.toBeInTheDocument()
  })

  it('shows the error of a 200 answer with success false', async () => {
    server.use(
      http.get('/api/domains/check', () =>
        HttpResponse.json({ success: false, error: 'Name is too short for .biz.ee' }),
      ),
    )
    const { events } = renderApp('/', { user: null })
    await searchFor(events, 'a', '.biz.ee')
    expect(await screen.findByText('Name is too short for .biz.ee')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Search result' })).not.toBeInTheDocument()
  })

  it("says 'An unexpected error occurred' when the request itself fails, and drops the old card", async () => {
    answerCheck({ domain: 'first', extension: '.inf.nz', available: true, isPremium: false, price: 8 })
    const { events } = renderApp('/', { user: null })
    const form = await searchFor(events, 'first')
    await screen.findByRole('region', { name: 'Search result' })
    server.use(http.get('/api/domains/check', () => HttpResponse.error()))
    await events.click(form.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Search result' })).not.toBeInTheDocument()
  })

  it("offers the server's active extensions, with .inf.nz still the default", async () => {
    server.use(
      http.get('/api/domain-extensions', () =>
        HttpResponse.json({
          success: true,
          data: [
            ...serverExtensions,
            {
              ...serverExtensions[0],
              id: 9,
              extension: '.shop.nz',
              basePrice: 12,
              description: 'Shops in New Zealand.',
            },
          ],
        }),
      ),
    )
    renderApp('/', { user: null })
    const form = within(await screen.findByRole('search', { name: 'Domain search' }))
    await form.findByRole('option', { name: '.shop.nz' })
    // The default leads; the others keep the server's order.
    expect(form.getAllByRole('option').map((option) => option.textContent)).toEqual([
      '.inf.nz',
      '.biz.ee',
      '.orgn.uk',
      '.shop.nz',
    ])
    expect(form.getByLabelText('Extension')).toHaveValue('.inf.nz')
  })

  it('keeps the fixed three extensions when the list cannot be loaded', async () => {
    server.use(http.get('/api/domain-extensions', () => new HttpResponse(null, { status: 500 })))
    answerCheck({ domain: 'acme', extension: '.orgn.uk', available: true, isPremium: false, price: 8 })
    const { events } = renderApp('/', { user: null })
    const form = within(await screen.findByRole('search', { name: 'Domain search' }))
    expect(form.getAllByRole('option').map((option) => option.textContent)).toEqual(['.inf.nz', '.biz.ee', '.orgn.uk'])
    expect(form.getByLabelText('Extension')).toHaveValue('.inf.nz')
    await searchFor(events, 'acme', '.orgn.uk')
    expect(await screen.findByText('acme.orgn.uk')).toBeInTheDocument()
  })
})
