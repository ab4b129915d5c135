import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Copy, KeyRound, RefreshCw } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { copyText } from '@/lib/clipboard'
import {
  confirmKSKDS,
  errorText,
  extensionDNSSECQueryOptions,
  startKSKRollover,
  type AdminExtension,
  type ExtensionDNSSEC,
} from '../api/extensions'

type Key = ExtensionDNSSEC['keys'][number]
type Rollover = NonNullable<ExtensionDNSSEC['rollover']>

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

function day(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' })
}

async function copy(text: string, what: string) {
  try {
    await copyText(text)
    toast({ title: 'Copied', description: `The ${what} is on your clipboard.` })
  } catch {
    toast({ title: 'Copy failed', variant: 'destructive', description: `Select the ${what} and copy it by hand.` })
  }
}

/** Why a zone is not signed, or that it is. */
function status(view: ExtensionDNSSEC): { tone: 'success' | 'muted'; label: string; detail: string } {
  if (view.signed)
    return {
      tone: 'success',
      label: 'Signed',
      detail: 'Answers carry DNSSEC signatures and the zone publishes its DNSKEY.',
    }
  if (!view.serverSigning)
    return { tone: 'muted', label: 'Unsigned', detail: 'This server runs with --dnssec=false: no zone is signed.' }
  if (!view.enabled)
    return {
      tone: 'muted',
      label: 'Unsigned',
      detail: 'DNSSEC is off for this extension: its zone is served without signatures or DNSKEY.',
    }
  return { tone: 'muted', label: 'Unsigned', detail: 'The extension is inactive: its zone is not served.' }
}

function Record({ label, text, what }: { label: string; text: string; what: string }) {
  return (
    <div className="space-y-1">
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</span>
        <Button variant="ghost" size="sm" onClick={() => copy(text, what)} aria-label={`Copy the ${what}`}>
          <Copy className="h-3.5 w-3.5" aria-hidden />
          Copy
        </Button>
      </div>
      <code className="block break-all rounded-md bg-slate-50 px-3 py-2 font-mono text-xs text-slate-800 ring-1 ring-inset ring-slate-200">
        {text}
      </code>
    </div>
  )
}

function KeyCard({ k }: { k: Key }) {
  const facts: [string, string][] = [
    ['Algorithm', `${k.algorithmName} (${k.algorithm})`],
    ['Key tag', String(k.keyTag)],
    ['Role', k.role],
    ['Created', day(k.createdAt)],
  ]
  if (k.retiredAt) facts[3] = ['Retired', day(k.retiredAt)]
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-3 sm:p-4" aria-label={`Key ${k.keyTag}`}>
      <div className="flex flex-wrap items-center gap-2">
        <KeyRound className="h-4 w-4 text-slate-500" aria-hidden />
        <span className="font-medium text-slate-900">Key {k.keyTag}</span>
        <Badge tone={k.state === 'active' ? 'success' : k.state === 'published' ? 'brand' : 'neutral'}>{k.state}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs text-slate-500">{term}</dt>
            <dd className="text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      {k.flags === 257 ? (
        <>
          <div className="space-y-1">
            <p className="text-sm text-slate-700">
              DS for the parent registry: key tag {k.ds.keyTag}, algorithm {k.ds.algorithm}, digest type{' '}
              {k.ds.digestType} (SHA-256).
            </p>
            <Record label="Digest" text={k.ds.digest} what="digest" />
          </div>
          <Record label="DS record" text={k.ds.record} what="DS record" />
        </>
      ) : (
        <p className="text-sm text-slate-600">
          A ZSK signs the zone's records; the parent registry needs no DS for it.
        </p>
      )}
      <Record label="DNSKEY record" text={k.dnskey} what="DNSKEY record" />
    </li>
  )
}

/** What the rollover under way is waiting for, in words. */
function rolloverText(r: Rollover): string {
  if (r.phase === 'retiring')
    return `The old ${r.kind} is retired: it stays published until ${when(r.nextStepAt)}, while resolvers may still hold what it signed, then it is removed.`
  if (r.kind === 'ZSK') return `A new ZSK is published; it starts signing the zone on ${when(r.nextStepAt)}.`
  if (r.phase === 'publishing')
    return `A new KSK is published, with its CDS and CDNSKEY records. Give its DS record (in its key above) to the parent registry; you can confirm it is published there from ${when(r.nextStepAt)}, once every resolver's cache holds the new key.`
  return "Give the new KSK's DS record (in its key above) to the parent registry. Once the parent publishes it, confirm here: the new key takes over and the old one retires."
}

/** The rollover under way, or the next one and the button that starts a KSK rollover. */
function Rollovers({ extension, data }: { extension: AdminExtension; data: ExtensionDNSSEC }) {
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState<'start' | 'confirm' | null>(null)
  const queryKey = extensionDNSSECQueryOptions(extension.id, extension.updatedAt).queryKey
  const step = useMutation({
    mutationFn: (which: 'start' | 'confirm') =>
      which === 'start' ? startKSKRollover(extension.id) : confirmKSKDS(extension.id),
    onSuccess: (view, which) => {
      queryClient.setQueryData(queryKey, view)
      setAsking(null)
      toast({
        title: which === 'start' ? 'KSK rollover started' : 'New KSK active',
        description:
          which === 'start'
            ? 'The new key is published. Give its DS record to the parent registry.'
            : 'The old key is retired and will be removed in a week.',
      })
    },
    onError: (error) => {
      setAsking(null)
      toast({ title: 'Rollover failed', variant: 'destructive', description: errorText(error) })
    },
  })
  const r = data.rollover
  return (
    <div className="space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-inset ring-slate-200" aria-label="Key rollover">
      {r ? (
        <>
          <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
            <RefreshCw className="h-4 w-4 text-slate-500" aria-hidden />
            {r.kind} rollover under way
          </p>
          <p className="text-sm text-slate-700">{rolloverText(r)}</p>
          {r.phase === 'awaiting-ds' && (
            <Button size="sm" disabled={step.isPending} onClick={() => setAsking('confirm')}>
              The parent publishes the new DS
            </Button>
          )}
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            Next ZSK rollover: {data.nextRollover ? when(data.nextRollover) : 'none scheduled'}
          </p>
          {data.signed && data.keys.length > 0 && (
            <Button size="sm" variant="outline" disabled={step.isPending} onClick={() => setAsking('start')}>
              Start KSK rollover
            </Button>
          )}
        </>
      )}
      <ConfirmDialog
        open={asking === 'start'}
        title={`Start a KSK rollover of ${data.zone}?`}
        description="A new key-signing key is published beside the current one, with CDS and CDNSKEY records for the parent. You then give its DS record to the parent registry and confirm here once the parent publishes it; until then the current key stays in charge."
        action="Start rollover"
        variant="primary"
        pending={step.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => step.mutate('start')}
      />
      <ConfirmDialog
        open={asking === 'confirm'}
        title="Does the parent publish the new DS?"
        description="Confirm only once the parent registry serves the new key's DS record: the new key then takes over, and validators that still hold only the old DS keep validating until the old key is removed in a week."
        action="Confirm"
        variant="primary"
        pending={step.isPending}
        onCancel={() => setAsking(null)}
        onConfirm={() => step.mutate('confirm')}
      />
    </div>
  )
}

/** The DNSSEC state of an extension's zone: whether it is signed, its keys and the DS to give to the parent. */
export function DNSSECKeys({ extension }: { extension: AdminExtension }) {
  const { data, isPending, isError } = useQuery(extensionDNSSECQueryOptions(extension.id, extension.updatedAt))
  if (isPending) {
    return (
      <div className="flex justify-center py-6">
        <Spinner />
      </div>
    )
  }
  if (isError) return <p className="text-sm text-red-600">Failed to load the DNSSEC keys.</p>
  const s = status(data)
  const live = data.keys.filter((k) => k.state !== 'removed')
  const removed = data.keys.filter((k) => k.state === 'removed')
  return (
    <section aria-labelledby="dnssec-heading" className="space-y-3 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center gap-2">
        <h4 id="dnssec-heading" className="text-sm font-semibold text-slate-900">
          DNSSEC of {data.zone}
        </h4>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="text-sm text-slate-600">{s.detail}</p>
      {live.length === 0 ? (
        <p className="text-sm text-slate-600">
          No key yet: one is made when a DNS server first serves the zone signed.
        </p>
      ) : (
        <ul className="space-y-3">
          {live.map((k) => (
            <KeyCard key={`${k.keyTag}-${k.createdAt}`} k={k} />
          ))}
        </ul>
      )}
      {removed.length > 0 && (
        <p className="text-sm text-slate-500">
          Removed keys:{' '}
          {removed.map((k) => `${k.keyTag} (${k.role}, ${k.removedAt ? day(k.removedAt) : ''})`).join(', ')}
        </p>
      )}
      {data.serverSigning && <Rollovers extension={extension} data={data} />}
    </section>
  )
}
