import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { redirect } from '@tanstack/react-router'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

export type UserType = User['userType']
export type RegistrarTier = NonNullable<User['tier']>

export type User = Schema<'UserBody'>

/** The logged-in user, or null for a visitor (the server answers 401). */
export function currentUserQueryOptions() {
  return queryOptions({
    queryKey: ['/api/auth/me'],
    queryFn: getQueryFn<User>({ on401: 'returnNull' }),
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
 * A failing current-user call also sends the visitor to /login (spec section 2).
 */
export async function requireUser(queryClient: QueryClient): Promise<User> {
  const user = await queryClient.ensureQueryData(currentUserQueryOptions()).catch(() => null)
  if (!user) throw redirect({ to: '/login' })
  return user
}

/** Route guard for /admin-dashboard: non-admins and visitors go to /login. */
export async function requireAdmin(queryClient: QueryClient): Promise<User> {
  const user = await queryClient.ensureQueryData(adminCheckQueryOptions()).catch(() => null)
  if (user?.userType !== 'admin') throw redirect({ to: '/login' })
  return user
}
