import { createFileRoute } from '@tanstack/react-router'
import { domainQueryOptions } from '@/features/domains/api/domains'
import { DomainManagementPage } from '@/features/domains/components/DomainManagementPage'
import { requireUser } from '@/lib/session'

export const Route = createFileRoute('/domain-management/$id')({
  beforeLoad: ({ context }) => requireUser(context.queryClient),
  // The page shows a spinner and handles a failed load itself (toast, then back
  // to the dashboard), so the request starts here without being awaited.
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(domainQueryOptions(params.id))
  },
  component: DomainManagementRoute,
})

function DomainManagementRoute() {
  const { id } = Route.useParams()
  return <DomainManagementPage key={id} id={id} />
}
