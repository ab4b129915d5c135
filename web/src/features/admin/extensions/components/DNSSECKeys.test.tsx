import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/queryClient'
import { server } from '@/test/server'
import type { AdminExtension, ExtensionDNSSEC } from '../api/extensions'
import { DNSSECKeys } from './DNSSECKeys'

const extension = { id: 1, extension: '.inf.nz', updatedAt: '2026-11-27T09:00:00Z' } as AdminExtension

function key(tag: number, flags: number, role: string, state: string, extra: object = {}) {
  return {
    keyTag: tag,
    algorithm: 13,
    algorithmName: 'ECDSAP256SHA256',
    flags,
    role,
    state,
    createdAt: '2026-08-01T10:00:00Z',
    activatedAt: '2026-08-01T10:00:00Z',
    publicKey: 'AAAA',
    dnskey: `inf.nz. 3600 IN DNSKEY ${flags} 3 13 AAAA`,
    ds: {
      keyTag: tag,
      algorithm: 13,
      digestType: 2,
      digest: 'AB'.repeat(32),
      record: `inf.nz. 3600 IN DS ${tag} 13 2 ${'AB'.repeat(32)}`,
    },
    ...extra,
  } as ExtensionDNSSEC['keys'][number]
}

const base: ExtensionDNSSEC = {
  extensionId: 1,
  extension: '.inf.nz',
  zone: 'inf.nz.',
  enabled: true,
  serverSigning: true,
  signed: true,
  keys: [],
}

function show(view: ExtensionDNSSEC, after?: ExtensionDNSSEC) {
  const posts: string[] = []
  server.use(
    http.get('/api/domain-extensions/1/dnssec', () => HttpResponse.json({ success: true, data: view })),
    http.post('/api/domain-extensions/1/dnssec/ksk-rollover/ds-confirmed', ({ request }) => {
      posts.push(new URL(request.url).pathname)
      return HttpResponse.json({ success: true, data: after })
    }),
  )
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DNSSECKeys extension={extension} />
    </QueryClientProvider>,
  )
  return posts
}

describe('DNSSECKeys', () => {
  it('shows a KSK waiting for its DS, and confirms it once asked', async () => {
    const ksk = key(2000, 257, 'KSK', 'published', { activatedAt: undefined })
    const waiting: ExtensionDNSSEC = {
      ...base,
      keys: [key(1000, 257, 'KSK', 'active'), key(3000, 256, 'ZSK', 'active'), ksk],
      rollover: { kind: 'KSK', phase: 'awaiting-ds', nextStepAt: '2026-11-27T11:00:00Z' },
    }
    const done: ExtensionDNSSEC = {
      ...waiting,
      keys: [
        key(1000, 257, 'KSK', 'retired', { retiredAt: '2026-11-27T12:00:00Z' }),
        key(3000, 256, 'ZSK', 'active'),
        { ...ksk, state: 'active' },
      ],
      rollover: { kind: 'KSK', phase: 'retiring', nextStepAt: '2026-12-04T13:00:00Z' },
    }
    const posts = show(waiting, done)
    const rollover = await screen.findByLabelText('Key rollover')
    expect(within(rollover).getByText('KSK rollover under way')).toBeInTheDocument()
    expect(within(rollover).getByText(/Once the parent publishes it, confirm here/)).toBeInTheDocument()
    // A ZSK has no DS for the parent.
    const zsk = screen.getByRole('listitem', { name: 'Key 3000' })
    expect(within(zsk).getByText(/the parent registry needs no DS for it/)).toBeInTheDocument()
    expect(within(zsk).queryByText('DS record')).toBeNull()

    await userEvent.click(within(rollover).getByRole('button', { name: 'The parent publishes the new DS' }))
    const dialog = await screen.findByRole('dialog', { name: 'Does the parent publish the new DS?' })
    expect(posts).toEqual([])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }))
    expect(await within(rollover).findByText(/The old KSK is retired: it stays published until/)).toBeInTheDocument()
    expect(posts).toEqual(['/api/domain-extensions/1/dnssec/ksk-rollover/ds-confirmed'])
    expect(within(screen.getByRole('listitem', { name: 'Key 1000' })).getByText('retired')).toBeInTheDocument()
    expect(within(screen.getByRole('listitem', { name: 'Key 1000' })).getByText('Retired')).toBeInTheDocument()
  })

  it('lists removed keys apart, and offers a KSK rollover when none is under way', async () => {
    show({
      ...base,
      keys: [
        key(1000, 257, 'KSK', 'active'),
        key(4000, 256, 'ZSK', 'removed', { removedAt: '2026-10-01T00:00:00Z' }),
        key(3000, 256, 'ZSK', 'active'),
      ],
      nextRollover: '2027-01-01T10:00:00Z',
    })
    const rollover = await screen.findByLabelText('Key rollover')
    expect(within(rollover).getByText(/^Next ZSK rollover: /)).not.toHaveTextContent('none scheduled')
    expect(within(rollover).getByRole('button', { name: 'Start KSK rollover' })).toBeEnabled()
    expect(screen.getAllByRole('listitem')).toHaveLength(2)
    expect(screen.getByText(/^Removed keys: 4000 \(ZSK, /)).toBeInTheDocument()
  })
})
