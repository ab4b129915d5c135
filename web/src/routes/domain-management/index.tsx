import { createFileRoute, redirect } from '@tanstack/react-router'
import { dashboardPathFor, requireUser } from '@/lib/session'

// Without an id there is no domain to manage: domains are picked from the dashboard.
export const Route = createFileRoute('/domain-management/')({
  beforeLoad: async ({ context, location }) => {
    const user = await requireUser(context.queryClient, location.href)
    throw redirect({ to: dashboardPathFor(user), replace: true })
  },
})
