import { createFileRoute } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { DashboardLoading } from '@/features/dashboard/components/DashboardHeading'
import { transactionsQueryOptions, walletQueryOptions } from '@/features/wallet/api/wallet'
import { WalletPage } from '@/features/wallet/components/WalletPage'
import { currentUserQueryOptions, requireUser } from '@/lib/session'

export const Route = createFileRoute('/wallet')({
  beforeLoad: ({ context }) => requireUser(context.queryClient),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(walletQueryOptions())
    void context.queryClient.prefetchQuery(transactionsQueryOptions())
  },
  component: WalletRoute,
})

function WalletRoute() {
  const { data: user } = useQuery(currentUserQueryOptions())
  if (!user) return <DashboardLoading />
  return <WalletPage user={user} />
}
