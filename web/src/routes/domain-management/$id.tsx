import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { DnsManagement } from '@/features/dns/components/DnsManagement'
import { DomainForwarding } from '@/features/domain-forwarding/components/DomainForwarding'
import { DomainManagementPage, type DomainTab } from '@/features/domains/components/DomainManagementPage'
import { EmailForwarding } from '@/features/email-forwarding/components/EmailForwarding'
import { dnsRecordsQueryOptions } from '@/lib/dns'
import { domainForwardingQueryOptions } from '@/lib/domainForwarding'
import { domainQueryOptions } from '@/lib/domains'
import { forwardingQueryOptions } from '@/lib/emailForwarding'
import { requireUser } from '@/lib/session'

const searchSchema = z.object({
  tab: z.catch(z.optional(z.enum(['dns', 'email-forwarding', 'domain-forwarding', 'settings'])), undefined),
})

export const Route = createFileRoute('/domain-management/$id')({
  validateSearch: searchSchema,
  beforeLoad: ({ context, location }) => requireUser(context.queryClient, location.href),
  loaderDeps: ({ search }) => ({ tab: search.tab }),
  // The page shows a spinner and handles a failed load itself (toast, then back
  // to the dashboard), so the requests start here without being awaited. The
  // DNS records (or the email or domain forwarding) load alongside the
  // domain when their tab is the one shown.
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(domainQueryOptions(params.id))
    if (deps.tab === undefined || deps.tab === 'dns') {
      void context.queryClient.prefetchQuery(dnsRecordsQueryOptions(params.id))
    }
    if (deps.tab === 'email-forwarding') void context.queryClient.prefetchQuery(forwardingQueryOptions(params.id))
    if (deps.tab === 'domain-forwarding') {
      void context.queryClient.prefetchQuery(domainForwardingQueryOptions(params.id))
    }
  },
  component: DomainManagementRoute,
})

function DomainManagementRoute() {
  const { id } = Route.useParams()
  const { tab = 'dns' } = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <DomainManagementPage
      key={id}
      id={id}
      tab={tab}
      onTabChange={(next: DomainTab) =>
        void navigate({ search: { tab: next === 'dns' ? undefined : next }, replace: true, resetScroll: false })
      }
      dnsPanel={(domain) => <DnsManagement domain={domain} />}
      emailPanel={(domain) => <EmailForwarding domain={domain} />}
      forwardingPanel={(domain) => <DomainForwarding domain={domain} />}
    />
  )
}
