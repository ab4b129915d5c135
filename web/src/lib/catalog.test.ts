import { describe, expect, it } from 'vitest'
import { capitalise, currentPriceOf, liveDiscount, type PremiumDomain } from './catalog'
import { formatUtcDate } from './format'

const shop = {
  id: 1,
  name: 'shop',
  extension: '.biz.ee',
  price: 350,
  currentPrice: 350,
  discountPercentage: 0,
  discountValidUntil: null,
  discountActive: false,
} as PremiumDomain

describe('premium prices', () => {
  it("shows the server's current price, never one worked out here", () => {
    expect(currentPriceOf({ ...shop, currentPrice: 315, discountPercentage: 10, discountActive: true })).toBe(315)
    // A stored discount the server does not apply (expired) changes nothing.
    expect(currentPriceOf({ ...shop, discountPercentage: 10, discountValidUntil: '2020-01-01T00:00:00Z' })).toBe(350)
  })

  it('reports the discount the server says is live', () => {
    const live = { ...shop, currentPrice: 280, discountPercentage: 20, discountValidUntil: '2026-12-31T00:00:00Z' }
    expect(liveDiscount({ ...live, discountActive: true })).toEqual({ percentage: 20, validUntil: '2026-12-31T00:00:00Z' })
    expect(liveDiscount({ ...live, discountActive: false })).toBeNull()
    expect(liveDiscount({ ...shop, discountActive: true })).toBeNull()
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
