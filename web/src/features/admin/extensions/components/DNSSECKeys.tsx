import { useQuery } from '@tanstack/react-query'
import { Copy, KeyRound } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { copyText } from '@/lib/clipboard'
import { extensionDNSSECQueryOptions, type AdminExtension, type ExtensionDNSSEC } from '../api/extensions'

type Key = ExtensionDNSSEC['keys'][number]

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
    ['Created', new Date(k.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })],
  ]
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 p-3 sm:p-4" aria-label={`Key ${k.keyTag}`}>
      <div className="flex flex-wrap items-center gap-2">
        <KeyRound className="h-4 w-4 text-slate-500" aria-hidden />
        <span className="font-medium text-slate-900">Key {k.keyTag}</span>
        <Badge tone={k.state === 'active' ? 'success' : 'neutral'}>{k.state}</Badge>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs text-slate-500">{term}</dt>
            <dd className="text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="space-y-1">
        <p className="text-sm text-slate-700">
          DS for the parent registry: key tag {k.ds.keyTag}, algorithm {k.ds.algorithm}, digest type {k.ds.digestType}{' '}
          (SHA-256).
        </p>
        <Record label="Digest" text={k.ds.digest} what="digest" />
      </div>
      <Record label="DS record" text={k.ds.record} what="DS record" />
      <Record label="DNSKEY record" text={k.dnskey} what="DNSKEY record" />
    </li>
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
  return (
    <section aria-labelledby="dnssec-heading" className="space-y-3 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center gap-2">
        <h4 id="dnssec-heading" className="text-sm font-semibold text-slate-900">
          DNSSEC of {data.zone}
        </h4>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="text-sm text-slate-600">{s.detail}</p>
      {data.keys.length === 0 ? (
        <p className="text-sm text-slate-600">
          No key yet: one is made when a DNS server first serves the zone signed.
        </p>
      ) : (
        <ul className="space-y-3">
          {data.keys.map((k) => (
            <KeyCard key={`${k.keyTag}-${k.createdAt}`} k={k} />
          ))}
        </ul>
      )}
      <p className="text-sm text-slate-600">
        Next rollover:{' '}
        {data.nextRollover
          ? new Date(data.nextRollover).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
          : 'none scheduled'}
      </p>
    </section>
  )
}
