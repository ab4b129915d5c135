import { AlertTriangle, XCircle } from 'lucide-react'
import { cx } from '@/lib/classNames'
import { formatUsd } from '@/lib/format'

/** Why a registration did not go through: short of funds, or the name was taken meanwhile. */
export type Problem = { kind: 'funds'; message: string; shortCents?: number } | { kind: 'taken'; message: string }

/**
 * Under the register step's summary: the name is gone, or the balance is
 * short (by how much), or else what will remain in the wallet.
 */
export function RegistrationNotice({
  problem,
  shortCents,
  remainingCents,
}: {
  problem: Problem | null
  /** How much is missing; 0 when the balance covers the total. */
  shortCents: number
  /** The balance after paying; undefined while it is unknown. */
  remainingCents: number | undefined
}) {
  return (
    <>
      {problem?.kind === 'taken' ? (
        <div
          role="alert"
          className="mt-4 flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          <XCircle className="h-5 w-5 shrink-0 text-red-500" aria-hidden />
          <div>
            <p className="font-semibold">This name is no longer available</p>
            <p className="mt-0.5">{problem.message}</p>
          </div>
        </div>
      ) : shortCents > 0 ? (
        <div
          role={problem ? 'alert' : 'status'}
          className="mt-4 flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          <AlertTriangle className="h-5 w-5 shrink-0 text-amber-500" aria-hidden />
          <div>
            {problem?.kind === 'funds' ? (
              <p>{problem.message}</p>
            ) : (
              <p>
                Your balance is short by <span className="font-semibold">{formatUsd(shortCents / 100)}</span>. Add
                funds to your wallet to register this domain.
              </p>
            )}
          </div>
        </div>
      ) : (
        remainingCents !== undefined && (
          <p className="mt-3 text-xs text-slate-500">
            {formatUsd(remainingCents / 100)} will remain in your wallet.
          </p>
        )
      )}
    </>
  )
}

/** One line of the register step's summary. */
export function SummaryRow({
  label,
  value,
  detail,
  strong = false,
}: {
  label: string
  value: string
  detail?: string
  strong?: boolean
}) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5">
      <dt className={cx(strong ? 'font-semibold text-slate-900' : 'text-slate-600')}>
        {label}
        {detail && <span className="ml-2 text-xs font-normal text-slate-500">{detail}</span>}
      </dt>
      <dd className={cx('tabular-nums', strong ? 'text-base font-semibold text-slate-900' : 'text-slate-900')}>
        {value}
      </dd>
    </div>
  )
}

