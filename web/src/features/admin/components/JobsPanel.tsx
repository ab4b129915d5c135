import { ExternalLink } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

/** Where the server mounts River's own UI, for admins only. */
export const RIVER_UI_PATH = '/admin/river/'

// The jobs the workers run, by River kind, so admins know what they will see.
const kinds = [
  ['notify.send', 'sends one mail (verification, password reset, receipts, notices) and keeps it in the outbox'],
  ['registration.scan', 'the periodic domain lifecycle scan: expiry notices, grace periods, releases'],
  ['registration.renew', 'renews one domain term from its owner’s wallet'],
  ['billing.stripe_event', 'applies one verified Stripe webhook event to the wallet'],
  ['account.purge_sessions', 'deletes expired sessions'],
  ['idempotency.purge', 'deletes stored /v1 answers whose Idempotency-Key has expired'],
  ['mailfwd.deliver', 'forwards one received message to one confirmed address (in the mail queue; retried for about 4 hours)'],
] as const

/**
 * The Jobs tab: what the background jobs are, and a link to River's own UI,
 * where admins list, retry and cancel them.
 */
export function JobsPanel() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Background Jobs</CardTitle>
        <CardDescription>
          Mail, renewals, Stripe events and clean-ups run in the background on River, a job queue kept in the
          database. River’s own UI lists every job by state and lets you retry or cancel one.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          {kinds.map(([kind, what]) => (
            <div key={kind} className="contents">
              <dt className="font-mono text-slate-700">{kind}</dt>
              <dd className="text-slate-600">{what}</dd>
            </div>
          ))}
        </dl>
        <a href={RIVER_UI_PATH} className={buttonStyles({})}>
          <ExternalLink className="h-4 w-4" aria-hidden />
          Open River UI
        </a>
      </CardContent>
    </Card>
  )
}
