import { createFileRoute } from '@tanstack/react-router'
import { LandingPage } from '@/features/landing/components/LandingPage'
import { domainExtensionsQueryOptions, premiumDomainsQueryOptions } from '@/lib/catalog'

export const Route = createFileRoute('/')({
  // Start the catalogue reads with the page; the sections show fallbacks meanwhile.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(domainExtensionsQueryOptions())
    void context.queryClient.prefetchQuery(premiumDomainsQueryOptions())
  },
  component: LandingPage,
})
