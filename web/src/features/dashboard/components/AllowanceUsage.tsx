import { useQuery } from '@tanstack/react-query'
import { ProgressBar } from '@tremor/react'
import { allowanceQueryOptions } from '@/lib/allowance'
import { formatUtcDate } from '@/lib/format'

// The allowance resets at midnight UTC on the first of a month: read the
// day in UTC, or it shows as the last of the month west of Greenwich.
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/**
 * The registrar's new registrations this calendar month against its tier's
 * allowance, and when it resets (spec section 6: 100, 500 or unlimited
 * domains monthly). Renewals do not count.
 */
export function AllowanceUsage() {
  const { data } = useQuery(allowanceQueryOptions())
  if (!data) return null
  const label = 'New registrations this month'
  const resets = monthDay.format(new Date(data.resetsAt))

  if (data.limit == null) {
    return (
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 pb-2 text-sm">
        <span className="font-medium text-slate-900">{label}</span>
        <span className="text-slate-600">{data.used} this month · unlimited</span>
      </div>
    )
  }

  const percent = data.limit > 0 ? Math.min(100, (data.used / data.limit) * 100) : 100
  const usedUp = data.remaining === 0
  return (
    <div className="space-y-2 pb-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
        <span id="allowance-label" className="font-medium text-slate-900">
          {label}
        </span>
        <span className="text-slate-600">
          {data.used} of {data.limit} this month · resets {resets}
        </span>
      </div>
      <ProgressBar
        value={percent}
        // The brand colour until it runs low.
        color={usedUp ? 'rose' : percent >= 80 ? 'amber' : undefined}
        role="progressbar"
        aria-labelledby="allowance-label"
        aria-valuemin={0}
        aria-valuemax={data.limit}
        aria-valuenow={data.used}
        aria-valuetext={`${data.used} of ${data.limit}`}
      />
      {usedUp && (
        <p role="status" className="text-rose-700">
          You have used this month&apos;s {data.limit} new registrations. New registrations resume on{' '}
          {formatUtcDate(data.resetsAt)} (UTC); renewals are not affected.
        </p>
      )}
    </div>
  )
}
