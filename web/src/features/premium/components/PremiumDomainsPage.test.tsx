import { screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import type { PremiumDomain } from '@/lib/catalog'
import { renderApp } from '@/test/renderApp'
import { premiumList } from '@/test/catalogFixtures'
import { endUser, registrar, rules, searchParamOf, server } from '@/test/server'

function serve(list: PremiumDomain[]) {
  server.use(http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: list })))
}

async function cardNames() {
  await screen.findAllByRole('article')
  return screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))
}

function card(name: string) {
  return within(screen.getByRole('article', { name }))
}

describe('/premium-domains', () => {
  it('lists every available name in the server order, with heading and subtitle', async () => {
    serve([...premiumList, { ...premiumList[0], id: 99, name: 'home', isAvailable: false }])
    renderApp('/premium-domains', { user: null })
    expect(await screen.findByRole('heading', { level: 1, name: 'Premium Domains' })).toBeInTheDocument()
    expect(await cardNames()).toEqual(['ai.inf.nz', 'cloud.inf.nz', 'shop.biz.ee', 'sport.biz.ee', 'travel.orgn.uk'])
    expect(screen.getByText('5 premium domains')).toBeInTheDocument()
    expect(document.title).toBe('Premium Domains · Nameport')
  })

  it('shows name, badges, category, description, two keywords and the rest as +N', async () => {
    serve(premiumList)
    renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const ai = card('ai.inf.nz')
    expect(ai.getByRole('heading', { name: 'ai.inf.nz' })).toBeInTheDocument()
    expect(ai.getByText('Premium')).toBeInTheDocument()
    expect(ai.getByText('Featured')).toBeInTheDocument()
    expect(ai.getByText('Technology')).toBeInTheDocument()
    expect(ai.getByText('Two letters for artificial intelligence.')).toBeInTheDocument()
    const keywords = within(ai.getByRole('list', { name: 'Keywords' }))
    expect(keywords.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'ai',
      'machine learning',
      '+2 more: tech, startup',
    ])
    expect(ai.getByText('$1,500.00')).toBeInTheDocument()
    // A visitor signs up first and comes back to this card.
    expect(searchParamOf(ai.getByRole('link', { name: 'Register Now' }))).toBe('/premium-domains?q=ai.inf.nz')

    const sport = card('sport.biz.ee')
    expect(sport.queryByText('Featured')).not.toBeInTheDocument()
    expect(sport.queryByRole('list', { name: 'Keywords' })).not.toBeInTheDocument()
  })

  it('shows a live discount: current price, struck list price, percentage and end date', async () => {
    serve(premiumList)
    renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const shop = card('shop.biz.ee')
    expect(shop.getByText('$280.00')).toBeInTheDocument()
    expect(shop.getByText('$350.00').tagName).toBe('S')
    expect(shop.getByText('20% off')).toBeInTheDocument()
    expect(shop.getByText('until Dec 31, 2099')).toBeInTheDocument()
    // No discount: one price and no discount line.
    const travel = card('travel.orgn.uk')
    expect(travel.getByText('$250.00')).toBeInTheDocument()
    expect(travel.queryByText(/% off/)).not.toBeInTheDocument()
  })

  it("shows the server's price and no discount when the server says the stored one is not live", async () => {
    serve([
      {
        ...premiumList[3],
        currentPrice: 220,
        discountPercentage: 10,
        discountValidUntil: '2020-01-31T00:00:00Z',
        discountActive: false,
      },
    ])
    renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const sport = card('sport.biz.ee')
    expect(sport.getByText('$220.00')).toBeInTheDocument()
    expect(sport.queryByText(/% off/)).not.toBeInTheDocument()
    expect(sport.queryByText(/until/)).not.toBeInTheDocument()
  })

  it('filters by category through the address', async () => {
    serve(premiumList)
    const { events, router } = renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const category = screen.getByLabelText('Category')
    expect(
      within(category)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'All',
      'General',
      'Business',
      'Technology',
      'Education',
      'Entertainment',
      'Health',
      'Finance',
      'Travel',
      'Sports',
      'Lifestyle',
    ])
    await events.selectOptions(category, 'Travel')
    await waitFor(() => expect(router.state.location.search).toEqual({ category: 'travel' }))
    expect(await cardNames()).toEqual(['travel.orgn.uk'])
    await events.selectOptions(category, 'Technology')
    await waitFor(async () => expect(await cardNames()).toEqual(['ai.inf.nz', 'cloud.inf.nz']))
    expect(screen.getByText('2 of 5 premium domains')).toBeInTheDocument()
  })

  it('opens with the filters of a shared link, and drops unknown ones', async () => {
    serve(premiumList)
    renderApp('/premium-domains?category=technology&sort=price-asc&q=%22cloud%22', { user: null })
    expect(await cardNames()).toEqual(['cloud.inf.nz'])
    expect(screen.getByLabelText('Category')).toHaveValue('technology')
    expect(screen.getByLabelText('Sort by')).toHaveValue('price-asc')
    expect(screen.getByLabelText('Search')).toHaveValue('cloud')
  })

  it('shows a linked category only once the server has said which categories exist', async () => {
    serve(premiumList)
    // The rules answer after the list: the page must not show every name meanwhile.
    let answerRules = () => {}
    const rulesAnswered = new Promise<void>((resolve) => (answerRules = resolve))
    server.use(
      http.get('/api/rules', async () => {
        await rulesAnswered
        return HttpResponse.json({ success: true, data: rules })
      }),
    )
    renderApp('/premium-domains?category=travel', { user: null })
    expect(await screen.findByText('Loading premium domains...')).toBeInTheDocument()
    await delay(50)
    expect(screen.queryAllByRole('article')).toHaveLength(0)
    answerRules()
    expect(await cardNames()).toEqual(['travel.orgn.uk'])
  })

  it('ignores an unknown category or sort in the address', async () => {
    serve(premiumList)
    renderApp('/premium-domains?category=%22pets%22&sort=%22cheapest%22', { user: null })
    expect(await cardNames()).toHaveLength(5)
    expect(screen.getByLabelText('Category')).toHaveValue('')
    expect(screen.getByLabelText('Sort by')).toHaveValue('')
  })

  it('sorts by price and by name', async () => {
    serve(premiumList)
    const { events } = renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const sort = screen.getByLabelText('Sort by')
    await events.selectOptions(sort, 'Price: low to high')
    // The discounted price counts: shop at $280 comes after travel at $250.
    await waitFor(async () =>
      expect(await cardNames()).toEqual(['sport.biz.ee', 'travel.orgn.uk', 'shop.biz.ee', 'cloud.inf.nz', 'ai.inf.nz']),
    )
    await events.selectOptions(sort, 'Price: high to low')
    await waitFor(async () =>
      expect(await cardNames()).toEqual(['ai.inf.nz', 'cloud.inf.nz', 'shop.biz.ee', 'travel.orgn.uk', 'sport.biz.ee']),
    )
    await events.selectOptions(sort, 'Name: A to Z')
    await waitFor(async () =>
      expect(await cardNames()).toEqual(['ai.inf.nz', 'cloud.inf.nz', 'shop.biz.ee', 'sport.biz.ee', 'travel.orgn.uk']),
    )
    await events.selectOptions(sort, 'Name: Z to A')
    await waitFor(async () =>
      expect(await cardNames()).toEqual(['travel.orgn.uk', 'sport.biz.ee', 'shop.biz.ee', 'cloud.inf.nz', 'ai.inf.nz']),
    )
  })

  it('searches names, keywords and descriptions, and puts the text in the address', async () => {
    serve(premiumList)
    const { events, router } = renderApp('/premium-domains', { user: null })
    await screen.findAllByRole('article')
    const search = screen.getByLabelText('Search')
    await events.type(search, 'RETAIL')
    await waitFor(async () => expect(await cardNames()).toEqual(['shop.biz.ee']))
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'RETAIL' }))
    await events.clear(search)
    await events.type(search, 'guides')
    await waitFor(async () => expect(await cardNames()).toEqual(['travel.orgn.uk']))
    await events.clear(search)
    await events.type(search, 'cloud.inf')
    await waitFor(async () => expect(await cardNames()).toEqual(['cloud.inf.nz']))
  })

  it("says 'No premium domains match your search' and clears the filters", async () => {
    serve(premiumList)
    const { events, router } = renderApp('/premium-domains?category=sports', { user: null })
    await screen.findAllByRole('article')
    await events.type(screen.getByLabelText('Search'), 'zzz')
    expect(await screen.findByText('No premium domains match your search')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(await cardNames()).toHaveLength(5)
    expect(screen.getByLabelText('Search')).toHaveValue('')
    expect(screen.getByLabelText('Category')).toHaveValue('')
    await waitFor(() => expect(router.state.location.search).toEqual({}))
  })

  it('has loading, empty and error states', async () => {
    server.use(
      http.get('/api/premium-domains', async () => {
        await delay('infinite')
        return HttpResponse.json({ success: true, data: [] })
      }),
    )
    const first = renderApp('/premium-domains', { user: null })
    expect(await screen.findByText('Loading premium domains...')).toBeInTheDocument()
    first.unmount()

    serve([])
    const second = renderApp('/premium-domains', { user: null })
    expect(await screen.findByText('No premium domains available at the moment')).toBeInTheDocument()
    second.unmount()

    let calls = 0
    server.use(
      http.get('/api/premium-domains', () => {
        calls++
        return calls === 1
          ? HttpResponse.json({ success: false, error: 'database unavailable' }, { status: 503 })
          : HttpResponse.json({ success: true, data: premiumList })
      }),
    )
    const { events } = renderApp('/premium-domains', { user: null })
    expect(await screen.findByText('Premium domains could not be loaded.')).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await cardNames()).toHaveLength(5)
  })

  it('opens the registration dialog at the current price for a logged-in user', async () => {
    serve(premiumList)
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 500, currency: 'USD' } })),
    )
    const { events } = renderApp('/premium-domains', { user: endUser })
    await screen.findAllByRole('article')
    await events.click(card('shop.biz.ee').getByRole('button', { name: 'Register Now' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Register domain' }))
    expect(dialog.getByText('Premium')).toBeInTheDocument()
    expect(dialog.getAllByText('$280.00').length).toBeGreaterThan(0)
  })

  it('tells a registrar the prices are partner prices and marks the tier discount', async () => {
    serve([{ ...premiumList[4], currentPrice: 225 }])
    renderApp('/premium-domains', { user: registrar })
    await screen.findAllByRole('article')
    expect(screen.getByText(/your partner prices \(10% off premium domains\)/)).toBeInTheDocument()
    const travel = card('travel.orgn.uk')
    expect(travel.getByText('$225.00')).toBeInTheDocument()
    expect(travel.getByText('$250.00').tagName).toBe('S')
    expect(travel.getByText('Partner price')).toBeInTheDocument()
    expect(travel.getByRole('button', { name: 'Register Now' })).toBeInTheDocument()
  })
})
