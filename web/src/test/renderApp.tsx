import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router'
import { HelpProvider } from '@/components/help/HelpProvider'
import { createQueryClient } from '@/lib/queryClient'
import { currentUserQueryOptions, type User } from '@/lib/session'
import { createAppRouter } from '@/router'

/**
 * Renders the whole app at a path, as the browser would. Pass `user` to start
 * with a known current user in the cache (null for a visitor); leave it out
 * to let the app ask /api/auth/session.
 */
export function renderApp(path: string, options: { user?: User | null } = {}) {
  const queryClient = createQueryClient()
  if (options.user !== undefined) queryClient.setQueryData(currentUserQueryOptions().queryKey, options.user)
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }))
  const events = userEvent.setup()
  const view = render(
    <QueryClientProvider client={queryClient}>
      <HelpProvider initialPath={path}>
        <RouterProvider router={router} />
      </HelpProvider>
    </QueryClientProvider>,
  )
  return { ...view, router, queryClient, events }
}
