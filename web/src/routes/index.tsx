import { createFileRoute } from '@tanstack/react-router'
import { LandingPage } from '@/features/landing/components/LandingPage'
import { domainExtensionsQueryOptions, premiumDomainsQueryOptions } from '@/lib/catalog'
import { textParam } from '@/lib/redirect'

export const Route = createFileRoute('/')({
  // ?name=shop&extension=.biz.ee searches that name as the page opens (the way
  // back after signing up or adding funds); the search form checks the values.
  validateSearch: (search: Record<string, unknown>): { name?: string; extension?: string } => ({
    name: textParam(search.name),
    extension: textParam(search.extension),
  }),
  // Start the catalogue reads with the page; the sections show fallbacks meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(domainExtensionsQueryOptions())
    void context.queryClient.prefetchQuery(premiumDomainsQueryOptions())
  },
  component: LandingRoute,
})

function LandingRoute() {
  const { name, extension } = Route.useSearch()
  const initialSearch = name ? { name, extension } : undefined
  // Keyed by the search, so arriving with another name (while already here) searches it.
  return <LandingPage key={name ? `${name}${extension ?? ''}` : 'landing'} initialSearch={initialSearch} />
}
