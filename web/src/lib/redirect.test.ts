import { describe, expect, it } from 'vitest'
import { landingSearchPath, safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it('keeps paths on this site', () => {
    expect(safeRedirect('/')).toBe('/')
    expect(safeRedirect('/?name=shop&extension=.biz.ee')).toBe('/?name=shop&extension=.biz.ee')
    expect(safeRedirect('/premium-domains?q=shop.biz.ee#top')).toBe('/premium-domains?q=shop.biz.ee#top')
  })

  it('drops other sites, protocol-relative and odd addresses', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/a\\b',
      'javascript:alert(1)',
      'dashboard',
      '',
      '/\nx',
      undefined,
      42,
    ]) {
      expect(safeRedirect(bad)).toBeUndefined()
    }
  })

  it('builds the landing search of a name', () => {
    expect(landingSearchPath('shop', '.biz.ee')).toBe('/?name=shop&extension=.biz.ee')
  })
})
