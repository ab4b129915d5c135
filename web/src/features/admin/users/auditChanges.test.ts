import { describe, expect, it } from 'vitest'
import { describeChange, diff, showValue } from './auditChanges'

describe('describeChange', () => {
  it('lists the fields that changed, leaving out bookkeeping timestamps', () => {
    expect(describeChange({ a: 1, b: [1], c: 'x', updatedAt: '1' }, { a: 1, b: [2], d: true, updatedAt: '2' })).toEqual(
      {
        summary: '',
        changes: [
          { field: 'b', before: [1], after: [2] },
          { field: 'c', before: 'x', after: undefined },
          { field: 'd', before: undefined, after: true },
        ],
      },
    )
  })

  it('says created, deleted, or saved without changes', () => {
    expect(describeChange(null, { name: 'ai' }).summary).toBe('created')
    expect(describeChange({ name: 'ai' }, null).summary).toBe('deleted')
    expect(describeChange({ name: 'ai' }, { name: 'ai' }).summary).toBe('saved without changes')
  })

  it('reads a bulk action domain by domain', () => {
    const before = [
      { id: 1, name: 'travel', extension: '.orgn.uk', featured: false, updatedAt: 'a' },
      { id: 2, name: 'learn', extension: '.orgn.uk', featured: false, updatedAt: 'a' },
    ]
    const after = {
      action: 'feature',
      ids: [1, 2],
      changed: 2,
      domains: before.map((d) => ({ ...d, featured: true, updatedAt: 'b' })),
    }
    expect(describeChange(before, after)).toEqual({
      summary: 'featured 2 domains',
      changes: [
        { field: 'travel.orgn.uk › featured', before: false, after: true },
        { field: 'learn.orgn.uk › featured', before: false, after: true },
      ],
    })
  })

  it('names the domains a bulk delete removed', () => {
    const before = [{ id: 1, name: 'ai', extension: '.inf.nz' }]
    expect(describeChange(before, { action: 'delete', ids: [1], changed: 1 })).toEqual({
      summary: 'deleted 1 domain: ai.inf.nz',
      changes: [],
    })
  })

  it('reads a gateway list stored as JSON text gateway by gateway and field by field', () => {
    const gateways = (enabled: boolean, bank: string) =>
      JSON.stringify([
        { id: 'paypal', name: 'PayPal', active: false, settings: { client_id: '' } },
        {
          id: 'bank_transfer',
          name: 'Bank Transfer',
          active: enabled,
          settings: { bank_name: bank, account_name: 'Acme' },
        },
      ])
    const before = { key: 'payment_gateways', value: gateways(false, '') }
    const after = { key: 'payment_gateways', value: gateways(true, 'First Bank') }
    expect(describeChange(before, after).changes).toEqual([
      { field: 'value › Bank Transfer › active', before: false, after: true },
      { field: 'value › Bank Transfer › settings › bank_name', before: '', after: 'First Bank' },
    ])
  })

  it('keeps text that only looks like JSON as text', () => {
    expect(diff({ v: '{not json' }, { v: '[x' })).toEqual([{ field: 'v', before: '{not json', after: '[x' }])
  })
})

describe('showValue', () => {
  it('shows switches, lists, named things and blanks readably', () => {
    expect(showValue(true)).toBe('on')
    expect(showValue(false)).toBe('off')
    expect(showValue(['a', 'b'])).toBe('a, b')
    expect(showValue({ id: 'bank_transfer', name: 'Bank Transfer', enabled: true })).toBe('Bank Transfer')
    expect(showValue('')).toBe('—')
    expect(showValue(12.5)).toBe('12.5')
  })
})
