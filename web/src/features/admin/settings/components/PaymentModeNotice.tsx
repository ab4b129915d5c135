import { useQuery } from '@tanstack/react-query'
import { depositOptionsQueryOptions, type DepositOptions } from '@/features/wallet/api/wallet'

const modeLabels: Record<DepositOptions['mode'], string> = {
  stripe: 'Stripe',
  demo: 'Demo (no real payments)',
  manual: 'Bank transfers only',
  none: 'None (deposits are refused)',
}

/**
 * How payments run on this server and where that is configured, as the
 * server reports it: Stripe's keys are server flags, not a gateway here.
 */
export function PaymentModeNotice() {
  const { data } = useQuery(depositOptionsQueryOptions())
  if (!data) return null
  return (
    <section aria-label="Payment mode" className="rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm">
      <p className="font-medium text-slate-900">
        Payment mode: <span data-mode={data.mode}>{modeLabels[data.mode]}</span>
      </p>
      <p className="mt-1 text-slate-600">{data.configuredBy}</p>
    </section>
  )
}
