import { createFileRoute } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { DashboardLoading } from '@/features/dashboard/components/DashboardHeading'
import { WalletPage, type WalletTab } from '@/features/wallet/components/WalletPage'
import { safeRedirect } from '@/lib/redirect'
import { currentUserQueryOptions, requireUser } from '@/lib/session'
import { transactionsQueryOptions, walletQueryOptions } from '@/lib/wallet'

const tabSchema = z.catch(z.optional(z.enum(['overview', 'deposit', 'transactions'])), undefined)

/** A deposit amount from the address: a positive number up to the maximum deposit, else none. */
function amountParam(value: unknown): number | undefined {
  const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN
  return Number.isFinite(amount) && amount > 0 && amount <= 10_000 ? amount : undefined
}

export const Route = createFileRoute('/wallet')({
  // ?tab= picks the tab; ?amount= fills the deposit form (the shortfall of a
  // registration) and ?return= is the page to continue at after the deposit.
  // Bad values are dropped rather than rejected: the wallet still opens.
  validateSearch: (search: Record<string, unknown>): { tab?: WalletTab; amount?: number; return?: string } => ({
    tab: tabSchema.parse(search.tab),
    amount: amountParam(search.amount),
    return: safeRedirect(search.return),
  }),
  beforeLoad: ({ context, location }) => requireUser(context.queryClient, location.href),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(walletQueryOptions())
    void context.queryClient.prefetchQuery(transactionsQueryOptions())
  },
  component: WalletRoute,
})

function WalletRoute() {
  const { tab = 'overview', amount, return: returnTo } = Route.useSearch()
  const navigate = Route.useNavigate()
  const { data: user } = useQuery(currentUserQueryOptions())
  if (!user) return <DashboardLoading />
  return (
    <WalletPage
      user={user}
      tab={tab}
      onTabChange={(next: WalletTab) =>
        void navigate({
          // The amount and the way back stay for a return to the deposit tab.
          search: (prev) => ({ ...prev, tab: next === 'overview' ? undefined : next }),
          replace: true,
          resetScroll: false,
        })
      }
      depositAmount={amount}
      returnTo={returnTo}
    />
  )
}
