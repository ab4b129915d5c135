import { createRootRouteWithContext, Outlet } from '@tanstack/react-router'
import type { QueryClient } from '@tanstack/react-query'
import { SiteLayout } from '@/features/layout/components/SiteLayout'
import { NotFoundPage } from '@/features/not-found/components/NotFoundPage'
import { RegistrationHost } from '@/features/registration/components/RegistrationHost'
import { currentUserQueryOptions } from '@/lib/session'

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  beforeLoad: ({ context }) => {
    // Start loading the current user at once, without holding up the page;
    // the header reads it from the cache and guards await the same request.
    void context.queryClient.prefetchQuery(currentUserQueryOptions())
  },
  component: () => (
    <SiteLayout>
      {/* Any page can offer a name to register; the dialog shows over it. */}
      <RegistrationHost>
        <Outlet />
      </RegistrationHost>
    </SiteLayout>
  ),
  notFoundComponent: NotFoundPage,
})
