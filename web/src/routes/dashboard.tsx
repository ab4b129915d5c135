import { createFileRoute, redirect } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { DashboardLoading } from '@/features/dashboard/components/DashboardHeading'
import { UserDashboard } from '@/features/dashboard/components/UserDashboard'
import { domainsQueryOptions } from '@/lib/domains'
import { DomainTable } from '@/features/domains/components/DomainTable'
import { currentUserQueryOptions, requireUser } from '@/lib/session'

export const Route = createFileRoute('/dashboard')({
  beforeLoad: async ({ context, location }) => {
    const user = await requireUser(context.queryClient, location.href)
    // Admins may use the end-user dashboard; registrars have their own.
    if (user.userType === 'registrar') throw redirect({ to: '/registrar-dashboard' })
  },
  // The domain table owns its loading and error states, so start the request
  // here without waiting for it.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(domainsQueryOptions())
  },
  pendingComponent: DashboardLoading,
  component: DashboardRoute,
})

function DashboardRoute() {
  const { data: user } = useQuery(currentUserQueryOptions())
  if (!user) return <DashboardLoading />
  return <UserDashboard user={user} domainList={<DomainTable />} />
}
