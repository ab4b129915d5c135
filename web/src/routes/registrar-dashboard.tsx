import { createFileRoute, redirect } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { apiKeyQueryOptions } from '@/features/dashboard/api/apiKey'
import { DashboardLoading } from '@/features/dashboard/components/DashboardHeading'
import { RegistrarDashboard, type WalletBalanceState } from '@/features/dashboard/components/RegistrarDashboard'
import { registrarTabs } from '@/features/dashboard/registrarTabs'
import { TierStatus } from '@/features/dashboard/components/TierStatus'
import { domainsQueryOptions } from '@/lib/domains'
import { DomainTable } from '@/features/domains/components/DomainTable'
import { walletQueryOptions } from '@/lib/wallet'
import { currentUserQueryOptions, requireUser } from '@/lib/session'

const searchSchema = z.object({
  tab: z.catch(z.optional(z.enum(registrarTabs)), undefined),
})

export const Route = createFileRoute('/registrar-dashboard')({
  validateSearch: searchSchema,
  beforeLoad: async ({ context, location }) => {
    const user = await requireUser(context.queryClient, location.href)
    if (user.userType !== 'registrar') throw redirect({ to: '/dashboard' })
  },
  loader: async ({ context }) => {
    void context.queryClient.prefetchQuery(domainsQueryOptions())
    // The API key is in no session answer: read before the dashboard shows,
    // so its field and the API Status card never show an empty key. A
    // failure leaves them at '--' rather than failing the page.
    await context.queryClient.ensureQueryData(apiKeyQueryOptions()).catch(() => undefined)
  },
  pendingComponent: DashboardLoading,
  component: RegistrarDashboardRoute,
})

function RegistrarDashboardRoute() {
  const { tab = 'domains' } = Route.useSearch()
  const navigate = Route.useNavigate()
  const { data: user } = useQuery(currentUserQueryOptions())
  // Spec section 7: the wallet is read only once the user is known.
  const wallet = useQuery({ ...walletQueryOptions(), enabled: Boolean(user) })
  const domains = useQuery(domainsQueryOptions())
  if (!user) return <DashboardLoading />

  const walletState: WalletBalanceState = wallet.isSuccess
    ? { status: 'ok', balance: wallet.data.balance }
    : wallet.isError
      ? { status: 'error' }
      : { status: 'loading' }

  return (
    <RegistrarDashboard
      user={user}
      wallet={walletState}
      domainCount={domains.data?.length}
      domainList={<DomainTable />}
      tierStatus={<TierStatus />}
      tab={tab}
      onTabChange={(next) => void navigate({ search: { tab: next === 'domains' ? undefined : next }, replace: true })}
    />
  )
}
