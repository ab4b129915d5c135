import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { RegisterForm } from '@/features/auth/components/RegisterForm'

// An unknown type or tier is dropped rather than rejected: the page still opens.
const registerSearchSchema = z.object({
  type: z.catch(z.optional(z.enum(['user', 'registrar'])), undefined),
  tier: z.catch(z.optional(z.enum(['basic', 'premium', 'enterprise'])), undefined),
})

export const Route = createFileRoute('/register')({
  validateSearch: registerSearchSchema,
  component: RegisterRoute,
})

function RegisterRoute() {
  const { type = 'user', tier } = Route.useSearch()
  // Keyed by the query, so following another partnership link re-selects the form.
  return <RegisterForm key={`${type}-${tier ?? ''}`} type={type} tier={tier} />
}
