import type { ReactNode } from 'react'
import { CheckCircle2, Tag, XCircle } from 'lucide-react'
import { Badge, PremiumBadge } from '@/components/ui/badge'
import { cx } from '@/lib/classNames'
import { checkedName, type DomainCheck } from '@/lib/domainCheck'
import { formatUsd } from '@/lib/format'
import { DomainName } from '@/components/DomainName'

/** What the server said about the name, in words. */
function statusText(result: DomainCheck) {
  if (result.available) return 'Available to register'
  switch (result.reason) {
    case 'registered':
      return 'Already registered'
    case 'reserved':
    case 'premium_reserved':
      return 'Reserved'
    default:
      return 'Not available to register'
  }
}

/**
 * One domain search result: the name, its price, whether it can be
 * registered (with a promotion and a different renewal price, if any), and
 * the action: on the landing page Register Now, in the registration dialog
 * Continue. Shown by every domain search.
 */
export function SearchResultCard({
  result,
  action,
  size = 'lg',
}: {
  result: DomainCheck
  /** The button for the name: an available one's next step, or a disabled Not Available. */
  action: ReactNode
  /** 'lg' on a page, 'md' inside a dialog. */
  size?: 'lg' | 'md'
}) {
  const large = size === 'lg'
  const icon = cx('shrink-0', large ? 'mt-1 h-6 w-6' : 'mt-0.5 h-5 w-5')
  return (
    <section
      aria-label="Search result"
      className={cx(
        'mt-4 flex flex-col text-left sm:flex-row sm:items-center sm:justify-between',
        large
          ? 'gap-4 rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5'
          : 'gap-3 rounded-xl p-4 ring-1 ring-inset ring-slate-200',
      )}
    >
      <div className="flex min-w-0 items-start gap-3">
        {result.available ? (
          <CheckCircle2 className={cx(icon, 'text-emerald-500')} aria-hidden />
        ) : (
          <XCircle className={cx(icon, 'text-slate-400')} aria-hidden />
        )}
        <div className="min-w-0">
          <p className={cx('flex flex-wrap items-center gap-2 font-semibold text-slate-900', large && 'text-lg')}>
            <DomainName>{checkedName(result)}</DomainName>
            {result.isPremium && (
              <PremiumBadge />
            )}
          </p>
          <p className="text-sm text-slate-600">
            <span className="font-semibold text-slate-900">{formatUsd(result.price)}</span> per year
          </p>
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-500">
            <span>{statusText(result)}</span>
            {result.available && result.promotion && (
              <Badge tone="success">
                <Tag className="h-3 w-3" aria-hidden />
                {result.promotion}
              </Badge>
            )}
          </p>
          {result.available && typeof result.renewalPrice === 'number' && result.renewalPrice !== result.price && (
            <p className="mt-0.5 text-xs text-slate-500">Renews at {formatUsd(result.renewalPrice)} per year</p>
          )}
        </div>
      </div>
      {action}
    </section>
  )
}
