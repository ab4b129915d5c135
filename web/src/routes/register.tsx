import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { RegisterForm } from '@/features/auth/components/RegisterForm'
import { safeRedirect } from '@/lib/redirect'
import type { RegistrarTier } from '@/lib/session'

// An unknown type or tier is dropped rather than rejected: the page still opens.
const registerSearchSchema = z.object({
  type: z.catch(z.optional(z.enum(['user', 'registrar'])), undefined),
  tier: z.catch(z.optional(z.enum(['basic', 'premium', 'enterprise'])), undefined),
})

export const Route = createFileRoute('/register')({
  // ?redirect= is where to go after signing up (a path on this site only).
  validateSearch: (
    search: Record<string, unknown>,
  ): { type?: 'user' | 'registrar'; tier?: RegistrarTier; redirect?: string } => ({
    ...registerSearchSchema.parse(search),
    redirect: safeRedirect(search.redirect),
  }),
  component: RegisterRoute,
})

function RegisterRoute() {
  const { type = 'user', tier, redirect } = Route.useSearch()
  // Keyed by the query, so following another partnership link re-selects the form.
  return <RegisterForm key={`${type}-${tier ?? ''}`} type={type} tier={tier} redirect={redirect} />
}
