import { describe, expect, it } from 'vitest'
import { capitalise, currentPriceOf, liveDiscount, type PremiumDomain } from './catalog'
import { formatUtcDate } from './format'

// Raw fields only, without the server's figures: what currentPriceOf and liveDiscount fall back on.
const shop = { id: 1, name: 'shop', extension: '.biz.ee', price: 350 } as PremiumDomain

describe('premium prices', () => {
  it("uses the server's current price when it sends one", () => {
    expect(currentPriceOf({ ...shop, currentPrice: 315, discountPercentage: 0 })).toBe(315)
  })

  it('applies a live discount to a raw list price, to the cent', () => {
    const now = new Date('2026-06-01T00:00:00Z')
    expect(liveDiscount({ ...shop, discountPercentage: 20, discountValidUntil: '2026-12-31T00:00:00Z' }, now)).toEqual({
      percentage: 20,
      validUntil: '2026-12-31T00:00:00Z',
    })
    expect(currentPriceOf({ ...shop, discountPercentage: 20, discountValidUntil: null })).toBe(280)
    expect(currentPriceOf({ ...shop, price: 99.99, discountPercentage: 20 })).toBe(79.99)
  })

  it('ignores an expired, zero or inactive discount', () => {
    const now = new Date('2026-06-01T00:00:00Z')
    expect(
      liveDiscount({ ...shop, discountPercentage: 10, discountValidUntil: '2026-05-31T23:59:59Z' }, now),
    ).toBeNull()
    expect(liveDiscount({ ...shop, discountPercentage: 0 }, now)).toBeNull()
    expect(liveDiscount({ ...shop, discountPercentage: 10, discountActive: false }, now)).toBeNull()
    expect(currentPriceOf({ ...shop, discountPercentage: 10, discountValidUntil: '2020-01-01T00:00:00Z' })).toBe(350)
  })
})

describe('catalogue formatting', () => {
  it('shows a discount end as its UTC calendar day', () => {
    expect(formatUtcDate('2026-12-31T23:59:59Z')).toBe('Dec 31, 2026')
    expect(formatUtcDate('2026-12-31T00:00:00Z')).toBe('Dec 31, 2026')
    expect(formatUtcDate('not a date')).toBe('not a date')
  })

  it('capitalises category names', () => {
    expect(capitalise('technology')).toBe('Technology')
    expect(capitalise('')).toBe('')
  })
})
