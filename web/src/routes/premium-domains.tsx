import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { PremiumDomainsPage, type PremiumFilters } from '@/features/premium/components/PremiumDomainsPage'
import { premiumDomainsQueryOptions, premiumSortKeys } from '@/lib/catalog'

// The filters live in the address so a filtered list can be shared; an
// unknown sort is dropped rather than rejected, an unknown category matches
// nothing.
const premiumSearchSchema = z.object({
  q: z.catch(z.optional(z.string()), undefined),
  // Any category: the server's list (GET /api/rules) decides what matches.
  category: z.catch(z.optional(z.string().check(z.maxLength(40))), undefined),
  sort: z.catch(z.optional(z.enum(premiumSortKeys)), undefined),
})

export const Route = createFileRoute('/premium-domains')({
  validateSearch: premiumSearchSchema,
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(premiumDomainsQueryOptions())
  },
  component: PremiumDomainsRoute,
})

function PremiumDomainsRoute() {
  const filters = Route.useSearch()
  const navigate = Route.useNavigate()
  const onFiltersChange = (next: PremiumFilters, options?: { replace?: boolean }) =>
    void navigate({
      search: { q: next.q || undefined, category: next.category, sort: next.sort },
      replace: options?.replace,
      resetScroll: false,
    })
  return <PremiumDomainsPage filters={filters} onFiltersChange={onFiltersChange} />
}
