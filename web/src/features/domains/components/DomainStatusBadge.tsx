import { AlertOctagon, CheckCircle2, Clock } from 'lucide-react'
import type { DomainStatus } from '@/lib/domains'
import { cx } from '@/lib/classNames'
import { formatDate } from '@/lib/format'
import type { Lifecycle } from '../lifecycle'
import { daysLeftText } from '../lifecycle'

// Own tones rather than the shared Badge's: amber-50 there is the Premium badge,
// and a status must not read as one. The icon tells them apart without colour.
const looks: Record<DomainStatus, { label: string; className: string; Icon: typeof Clock }> = {
  active: { label: 'Active', className: 'bg-emerald-50 text-emerald-700 ring-emerald-200', Icon: CheckCircle2 },
  expiring_soon: { label: 'Expiring soon', className: 'bg-amber-100 text-amber-900 ring-amber-300', Icon: Clock },
  expired: { label: 'Expired', className: 'bg-red-50 text-red-700 ring-red-200', Icon: AlertOctagon },
}

/** What the badge adds in words: how soon, or until when it can still be renewed. */
export function statusDetail({ status, daysLeft, graceEndsAt }: Lifecycle): string | undefined {
  if (status === 'expiring_soon') return daysLeftText(daysLeft)
  if (status === 'expired') return `grace until ${formatDate(graceEndsAt)}`
  return undefined
}

/**
 * A domain's status: Active, Expiring soon ("in N days") or Expired ("grace
 * until DATE"). `layout="stacked"` puts the detail under the badge (table
 * cells); inline keeps it beside the badge.
 */
export function DomainStatusBadge({
  lifecycle,
  layout = 'inline',
  className,
}: {
  lifecycle: Lifecycle
  layout?: 'inline' | 'stacked'
  className?: string
}) {
  const { label, className: tone, Icon } = looks[lifecycle.status]
  const detail = statusDetail(lifecycle)
  return (
    <span
      className={cx(
        'inline-flex',
        layout === 'stacked' ? 'flex-col items-start gap-1' : 'flex-wrap items-center gap-x-1.5 gap-y-1',
        className,
      )}
    >
      <span
        className={cx(
          'inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
          tone,
        )}
      >
        <Icon className="h-3 w-3" aria-hidden />
        {label}
      </span>
      {detail && (
        <span
          className={cx(
            'whitespace-nowrap text-xs',
            lifecycle.status === 'expired' ? 'font-medium text-red-700' : 'text-amber-800',
          )}
        >
          {detail}
        </span>
      )}
    </span>
  )
}
