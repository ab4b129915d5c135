import { cx } from '@/lib/classNames'
import { currentPriceOf, liveDiscount, type PremiumDomain } from '@/lib/catalog'
import { formatUsd, formatUtcDate } from '@/lib/format'

/**
 * The yearly price of a premium name: what the caller pays now, with the list
 * price struck through when that is lower (a live discount or a registrar's
 * partner price). `details` adds the discount's percentage and end date.
 */
export function PremiumPrice({
  domain,
  details = false,
  size = 'md',
  className,
}: {
  domain: PremiumDomain
  details?: boolean
  size?: 'md' | 'lg'
  className?: string
}) {
  const current = currentPriceOf(domain)
  const discount = liveDiscount(domain)
  const reduced = current < domain.price
  return (
    <div className={className}>
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm text-slate-600">
        <span className={cx('font-semibold text-slate-900', size === 'lg' ? 'text-2xl tracking-tight' : 'text-base')}>
          {formatUsd(current)}
        </span>
        {reduced && (
          <>
            <span className="sr-only">instead of</span>
            <s className="text-slate-500">{formatUsd(domain.price)}</s>
          </>
        )}
        <span>per year</span>
      </p>
      {details && reduced && (
        <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
          {discount ? (
            <>
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-semibold text-emerald-700 ring-1 ring-inset ring-emerald-200">
                {discount.percentage}% off
              </span>
              {discount.validUntil && <span>until {formatUtcDate(discount.validUntil)}</span>}
            </>
          ) : (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 font-semibold text-brand-700 ring-1 ring-inset ring-brand-200">
              Partner price
            </span>
          )}
        </p>
      )}
    </div>
  )
}
