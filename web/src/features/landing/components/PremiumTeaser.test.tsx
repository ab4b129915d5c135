import { screen, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { premiumList } from '@/test/catalogFixtures'
import { rules, server, serverExtensions } from '@/test/server'

async function teaser() {
  return within(await screen.findByRole('region', { name: 'Short, memorable, ready to use' }))
}

function cardTexts(region: Awaited<ReturnType<typeof teaser>>) {
  return region.getAllByRole('listitem').map((item) => item.textContent)
}

describe('premium teaser', () => {
  it("says 'Loading premium domains...' while the list loads", async () => {
    server.use(
      http.get('/api/premium-domains', async () => {
        await delay('infinite')
        return HttpResponse.json({ success: true, data: [] })
      }),
    )
    renderApp('/', { user: null })
    const region = await teaser()
    expect(region.getByText('Loading premium domains...')).toBeInTheDocument()
  })

  it('says so when there are no premium domains', async () => {
    renderApp('/', { user: null })
    const region = await teaser()
    expect(await region.findByText('No premium domains available at the moment')).toBeInTheDocument()
  })

  it('shows the first three in the server order, each with Premium and its price per year', async () => {
    server.use(http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: premiumList })))
    renderApp('/', { user: null })
    const region = await teaser()
    await region.findByText('ai')
    const cards = cardTexts(region)
    expect(cards).toHaveLength(3)
    expect(cards[0]).toContain('ai.inf.nz')
    expect(cards[0]).toContain('Premium')
    expect(cards[0]).toContain('$1,500.00')
    expect(cards[0]).toContain('per year')
    expect(cards[1]).toContain('cloud.inf.nz')
    expect(cards[2]).toContain('shop.biz.ee')
    expect(region.queryByText('travel')).not.toBeInTheDocument()
  })

  it('shows the discounted price with the list price struck through', async () => {
    server.use(http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: premiumList })))
    renderApp('/', { user: null })
    const region = await teaser()
    const shop = (await region.findByText('shop')).closest('li')!
    expect(within(shop).getByText('$280.00')).toBeInTheDocument()
    const listPrice = within(shop).getByText('$350.00')
    expect(listPrice.tagName).toBe('S')
    // A name without a discount shows one price only.
    const cloud = region.getByText('cloud').closest('li')!
    expect(cloud.querySelector('s')).toBeNull()
  })

  it('links to /premium-domains', async () => {
    renderApp('/', { user: null })
    const region = await teaser()
    expect(region.getByRole('link', { name: 'View All Premium Domains' })).toHaveAttribute('href', '/premium-domains')
  })
})

describe('domains section', () => {
  it("lists the server's extensions with their description and base price", async () => {
    server.use(
      http.get('/api/domain-extensions', () =>
        HttpResponse.json({
          success: true,
          data: [
            serverExtensions[0],
            { ...serverExtensions[1], basePrice: 10, description: 'Information and knowledge sites.' },
            serverExtensions[2],
          ],
        }),
      ),
    )
    renderApp('/', { user: null })
    const section = within(await screen.findByRole('region', { name: 'Three extensions to choose from' }))
    expect(section.getByText('Information and knowledge sites.')).toBeInTheDocument()
    expect(section.getByText('Business names under .biz.ee.')).toBeInTheDocument()
    expect(section.getByText('$10')).toBeInTheDocument()
    expect(section.getByText(/Regular names from \$8 per year/)).toBeInTheDocument()
  })

  it('lists length prices and promotions that are running, not those that ended', async () => {
    // inForce is the server's word on whether a rule sets prices now.
    const rule = { isPromotion: false, promotionLabel: '', promotionStartDate: null, promotionEndDate: null, inForce: true }
    server.use(
      http.get('/api/domain-extensions', () =>
        HttpResponse.json({
          success: true,
          data: [
            {
              ...serverExtensions[2],
              lengthBasedPricing: [
                { ...rule, minLength: 1, maxLength: 3, price: 20 },
                {
                  ...rule,
                  minLength: 10,
                  // Up to the longest name the extension takes: shown as "10+".
                  maxLength: serverExtensions[2].maxNameLength,
                  price: 6,
                  isPromotion: true,
                  promotionLabel: 'Long names launch offer',
                  promotionStartDate: '2020-01-01T00:00:00Z',
                  promotionEndDate: '2099-01-01T00:00:00Z',
                },
                {
                  ...rule,
                  minLength: 4,
                  maxLength: 9,
                  price: 5,
                  isPromotion: true,
                  promotionLabel: 'Last year',
                  promotionStartDate: '2020-01-01T00:00:00Z',
                  promotionEndDate: '2021-01-01T00:00:00Z',
                  inForce: false,
                },
              ],
            },
          ],
        }),
      ),
    )
    renderApp('/', { user: null })
    const section = within(await screen.findByRole('region', { name: 'One extension, one simple price' }))
    expect(section.getByText(/Some name lengths have their own price/)).toBeInTheDocument()
    expect(section.getByText('1–3 character names:')).toBeInTheDocument()
    expect(section.getByText('$20.00')).toBeInTheDocument()
    expect(section.getByText('Names of 10+ characters:')).toBeInTheDocument()
    expect(section.getByText('Long names launch offer')).toBeInTheDocument()
    expect(section.queryByText('Last year')).not.toBeInTheDocument()
  })

  it("shows the spec's three without prices while the server cannot be read: no price is made up here", async () => {
    server.use(http.get('/api/domain-extensions', () => HttpResponse.error()))
    renderApp('/', { user: null })
    const section = within(await screen.findByRole('region', { name: 'Our extensions' }))
    for (const extension of ['.inf.nz', '.biz.ee', '.orgn.uk']) {
      expect(section.getByText(extension)).toBeInTheDocument()
    }
    expect(section.queryByText(/\$\d/)).not.toBeInTheDocument()
  })
})

describe('partnership tiers', () => {
  it("shows each tier's premium-name discount", async () => {
    renderApp('/', { user: null })
    const pricing = within(await screen.findByRole('region', { name: 'Registrar partnership' }))
    // The tiers and their prices are the server's (GET /api/rules).
    expect(await pricing.findByText('Standard premium pricing')).toBeInTheDocument()
    for (const tier of rules.registrarTiers) {
      expect(pricing.getByRole('heading', { name: tier.name })).toBeInTheDocument()
      expect(pricing.getByText(`$${tier.pricePerDomain}`)).toBeInTheDocument()
    }
    expect(pricing.getByText('10% off premium domains')).toBeInTheDocument()
    expect(pricing.getByText('20% off premium domains')).toBeInTheDocument()
  })
})
