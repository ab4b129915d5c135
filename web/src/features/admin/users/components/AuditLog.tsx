import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ChevronLeft, ChevronRight, History, LoaderCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api'
import { auditLogQueryOptions, type AuditEntry } from '../api'
import { describeChange, showValue } from '../auditChanges'

// Exported for the test that every action the server records has one.
export const actionLabels: Record<string, string> = {
  'extension.create': 'Added extension',
  'extension.update': 'Changed extension',
  'extension.delete': 'Deleted extension',
  'premium.create': 'Added premium domain',
  'premium.update': 'Changed premium domain',
  'premium.delete': 'Deleted premium domain',
  'premium.bulk': 'Changed premium domains',
  'user.tier': 'Changed tier',
  'tier_application.approve': 'Approved the tier application of',
  'tier_application.decline': 'Declined the tier application of',
  'user.disable': 'Disabled account',
  'user.enable': 'Enabled account',
  'setting.create': 'Added site setting',
  'setting.update': 'Changed site setting',
  'setting.delete': 'Deleted site setting',
  'page.create': 'Added page',
  'page.update': 'Changed page',
  'page.delete': 'Deleted page',
  // Changes an account makes to its own security (the actor is the account).
  'account.password_change': 'Changed the password of',
  'account.two_factor_enable': 'Turned on two-factor sign-in of',
  'account.two_factor_disable': 'Turned off two-factor sign-in of',
  'account.recovery_codes_reset': 'Made new recovery codes of',
  'account.session_end': 'Signed out a session of',
  'account.sessions_end_others': 'Signed out the other sessions of',
  'account.passkey_add': 'Added a passkey to',
  'account.passkey_remove': 'Removed a passkey of',
  'account.api_key_create': 'Made an API key for',
  'account.api_key_rotate': 'Gave a new secret to an API key of',
  'account.api_key_revoke': 'Revoked an API key of',
  'deposit.confirm': 'Confirmed the bank transfer of',
  'deposit.reject': 'Rejected the bank transfer of',
  'contact_message.reply': 'Answered the message of',
  'contact_message.delete': 'Deleted the message of',
  'dnssec.ksk_rollover': 'Started a KSK rollover of extension',
  'dnssec.ksk_ds_confirmed': "Confirmed the new KSK's DS of extension",
}
// Past this many, a change is summed up as "and N more" so one entry stays short.
const MAX_CHANGES = 8
const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/** The audit log: every admin change, newest first, page by page. */
export function AuditLog() {
  // The cursors of the pages seen so far; the last one is the page shown.
  const [cursors, setCursors] = useState<number[]>([0])
  const query = useQuery(auditLogQueryOptions(cursors[cursors.length - 1]))
  return (
    <Card>
      <CardHeader>
        <CardTitle>Audit log</CardTitle>
        <CardDescription>
          Every change made by admins, and every change to an account's security: who, what, before and after, and when.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="flex items-center justify-center gap-3 py-10 text-slate-500">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading audit log...
          </div>
        ) : query.isError ? (
          <div role="alert" className="flex flex-col items-center gap-2 py-10 text-center">
            <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
            <p className="font-medium text-slate-900">Could not load the audit log</p>
            <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
          </div>
        ) : (query.data.entries ?? []).length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-10 text-center">
            <History className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="font-medium text-slate-900">No changes yet</p>
          </div>
        ) : (
          <>
            <ol aria-label="Audit log" className="divide-y divide-slate-100">
              {(query.data.entries ?? []).map((e) => (
                <AuditRow key={e.id} entry={e} />
              ))}
            </ol>
            <div className="mt-4 flex justify-end gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={cursors.length <= 1}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                <ChevronLeft className="h-4 w-4" aria-hidden /> Newer
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={!query.data.nextCursor}
                onClick={() => setCursors([...cursors, query.data.nextCursor!])}
              >
                Older <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}

/** What the change was about: a name from the recorded object, else its id. */
function targetName(e: AuditEntry): string {
  for (const side of [e.after, e.before]) {
    if (side && typeof side === 'object' && !Array.isArray(side)) {
      const o = side as Record<string, unknown>
      if (typeof o.username === 'string') return o.username
      if (typeof o.name === 'string') return `${o.name}${typeof o.extension === 'string' ? o.extension : ''}`
      if (typeof o.extension === 'string') return o.extension
      if (typeof o.key === 'string') return o.key
      if (typeof o.slug === 'string') return `/pages/${o.slug}`
    }
  }
  return e.targetId ? `#${e.targetId}` : ''
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const { summary, changes: all } = describeChange(e.before, e.after)
  const changes = all.slice(0, MAX_CHANGES)
  return (
    <li className="py-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="min-w-0 text-slate-900">
          <span className="font-medium">{e.actor || 'deleted account'}</span>{' '}
          <span className="text-slate-600">{(actionLabels[e.action] ?? e.action).toLowerCase()}</span>{' '}
          <span className="break-words font-medium">{targetName(e)}</span>
        </p>
        <time dateTime={e.createdAt} className="whitespace-nowrap text-xs text-slate-500">
          {when.format(new Date(e.createdAt))}
        </time>
      </div>
      {summary && <p className="mt-1 text-xs text-slate-500">{summary}</p>}
      {changes.length > 0 && (
        <dl className="mt-1.5 space-y-0.5 text-xs">
          {changes.map((c) => (
            <div key={c.field} className="flex flex-wrap gap-x-2">
              <dt className="font-mono text-slate-500">{c.field}</dt>
              <dd className="min-w-0 break-all">
                <span className="text-red-700 line-through decoration-red-300">{showValue(c.before)}</span>
                <span className="px-1 text-slate-500">→</span>
                <span className="text-emerald-700">{showValue(c.after)}</span>
              </dd>
            </div>
          ))}
          {all.length > changes.length && <div className="text-slate-500">and {all.length - changes.length} more</div>}
        </dl>
      )}
    </li>
  )
}
