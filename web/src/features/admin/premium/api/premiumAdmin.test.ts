import { describe, expect, it } from 'vitest'
import { nextTableSort as nextSort } from '@/components/ui/DataTable'
import {
  csvFileName,
  defaultFilters,
  defaultSort,
  filterDomains,
  premiumDomainsCsv,
  sortDomains,
  splitKeywords,
  type AdminPremiumDomain,
} from './premiumAdmin'

function domain(id: number, name: string, extra: Partial<AdminPremiumDomain> = {}): AdminPremiumDomain {
  return {
    id,
    name,
    extension: '.inf.nz',
    price: 100,
    currentPrice: 100,
    discountActive: false,
    discountPercentage: 0,
    discountValidUntil: null,
    featured: false,
    description: '',
    category: 'general',
    keywords: [],
    isAvailable: true,
    ...extra,
  }
}

const cloud = domain(1, 'cloud', { price: 500, category: 'technology', featured: true, keywords: ['hosting'] })
const shop = domain(2, 'shop', { extension: '.biz.ee', price: 350, discountPercentage: 20, category: 'business' })
const home = domain(3, 'home', { price: 600, isAvailable: false, description: 'Held back by the registry.' })
const list = [shop, home, cloud]

describe('filterDomains', () => {
  it('searches name with extension, description and keywords', () => {
    expect(filterDomains(list, { ...defaultFilters, search: 'shop.biz' })).toEqual([shop])
    expect(filterDomains(list, { ...defaultFilters, search: 'REGISTRY' })).toEqual([home])
    expect(filterDomains(list, { ...defaultFilters, search: 'hosting' })).toEqual([cloud])
  })

  it('filters by category, status and featured', () => {
    expect(filterDomains(list, { ...defaultFilters, category: 'business' })).toEqual([shop])
    expect(filterDomains(list, { ...defaultFilters, status: 'reserved' })).toEqual([home])
    expect(filterDomains(list, { ...defaultFilters, status: 'available' })).toEqual([shop, cloud])
    expect(filterDomains(list, { ...defaultFilters, featuredOnly: true })).toEqual([cloud])
    expect(filterDomains(list, defaultFilters)).toEqual(list)
  })
})

describe('sorting', () => {
  it('starts by name ascending and flips the active key', () => {
    expect(defaultSort).toEqual({ key: 'name', direction: 'asc' })
    expect(sortDomains(list, defaultSort).map((d) => d.name)).toEqual(['cloud', 'home', 'shop'])
    const flipped = nextSort(defaultSort, 'name')
    expect(flipped).toEqual({ key: 'name', direction: 'desc' })
    expect(sortDomains(list, flipped).map((d) => d.name)).toEqual(['shop', 'home', 'cloud'])
  })

  it('a new key starts ascending', () => {
    const byPrice = nextSort({ key: 'name', direction: 'desc' }, 'price')
    expect(byPrice).toEqual({ key: 'price', direction: 'asc' })
    expect(sortDomains(list, byPrice).map((d) => d.price)).toEqual([350, 500, 600])
    expect(sortDomains(list, nextSort(byPrice, 'price')).map((d) => d.price)).toEqual([600, 500, 350])
    expect(sortDomains(list, { key: 'discount', direction: 'desc' })[0]).toBe(shop)
  })
})

describe('CSV export', () => {
  it('has the spec columns and quotes cells that need it', () => {
    const csv = premiumDomainsCsv([
      domain(7, 'ai', {
        price: 1500,
        discountPercentage: 15,
        discountValidUntil: '2026-12-31T23:59:59Z',
        featured: true,
        category: 'technology',
        description: 'Short, "smart" name',
        keywords: ['ai', 'data'],
      }),
      home,
    ])
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'ID,Name,Extension,Price,Status,Discount,Valid Until,Featured,Category,Description,Keywords',
    )
    expect(lines[1]).toBe('7,ai,.inf.nz,1500.00,Available,15%,2026-12-31,Yes,technology,"Short, ""smart"" name",ai; data')
    expect(lines[2]).toBe('3,home,.inf.nz,600.00,Reserved,0%,,No,general,Held back by the registry.,')
  })

  it('names the file with the date', () => {
    expect(csvFileName(new Date(2026, 10, 2))).toBe('premium-domains-2026-11-02.csv')
  })
})

it('splits comma separated keywords', () => {
  expect(splitKeywords(' seo, short , ,brand,')).toEqual(['seo', 'short', 'brand'])
})
