import { createFileRoute } from '@tanstack/react-router'
import { LoginForm } from '@/features/auth/components/LoginForm'
import { safeRedirect } from '@/lib/redirect'

export const Route = createFileRoute('/login')({
  // ?redirect= is where to go after logging in: a path on this site only;
  // anything else is dropped and the dashboard of the user's type is used.
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: safeRedirect(search.redirect),
  }),
  component: LoginRoute,
})

function LoginRoute() {
  const { redirect } = Route.useSearch()
  return <LoginForm redirect={redirect} />
}
