import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

export type UserType = User['userType']
export type RegistrarTier = NonNullable<User['tier']>

export type User = Schema<'UserBody'>

type SessionState = Schema<'SessionStateBody'>

/**
 * The logged-in user, or null for a visitor. It asks /api/auth/session,
 * which answers a visitor 200: /api/auth/me's 401 would be an error in the
 * console of every guest page.
 */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: ['/api/auth/session'],
    queryFn: async (context): Promise<User | null> => {
      const state = await getQueryFn<SessionState>()(context)
      return state.user ?? null
    },
  })
}

/** The admin check reads its own endpoint, as the spec's admin dashboard does. */
export function adminCheckQueryOptions() {
  return queryOptions({
    queryKey: ['/api/me'],
    queryFn: getQueryFn<User>({ on401: 'returnNull' }),
  })
}

export function dashboardPathFor(user: Pick<User, 'userType'> | null | undefined) {
  return user?.userType === 'registrar' ? ('/registrar-dashboard' as const) : ('/dashboard' as const)
}

/**
 * Route guard: the current user, or a redirect to /login for a visitor.
 * A failing current-user call also sends the visitor to /login (spec
 * section 2). from, the page asked for (location.href), comes back as
 * ?redirect= so that logging in leads there.
 */
export async function requireUser(queryClient: QueryClient, from?: string): Promise<User> {
  const user = await queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null)
  if (!user) throw redirect({ to: '/login', search: { redirect: from } })
  return user
}

/**
 * Route guard for /admin-dashboard: visitors go to /login (and come back
 * after it), non-admins to /login. A visitor is known from the session
 * check, so only accounts ask the admin check, which is 401 for visitors.
 * An admin held until it sets up two-factor sign-in (setupEnforced) goes to
 * its dashboard, which opens Account Settings.
 */
export async function requireAdmin(queryClient: QueryClient, from?: string): Promise<User> {
  const signedIn = await queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null)
  if (!signedIn) throw redirect({ to: '/login', search: { redirect: from } })
  const user = await queryClient.ensureQueryData(adminCheckQueryOptions()).catch(() => null)
  if (user?.userType !== 'admin') throw redirect({ to: '/login' })
  const twoFactor = await queryClient
    .ensureQueryData({
      queryKey: ['/api/account/two-factor'],
      queryFn: getQueryFn<Schema<'TwoFactorStatusBody'>>(),
    })
    .catch(() => null)
  if (twoFactor?.setupEnforced) throw redirect({ to: '/dashboard' })
  return user
}
