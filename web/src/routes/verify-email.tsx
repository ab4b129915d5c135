import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { VerifyEmailPage } from '@/features/auth/components/VerifyEmailPage'

// ?token= comes from the mailed link; a missing or malformed one opens the
// page anyway, which then explains that the link cannot be used.
const verifySearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), undefined),
})

export const Route = createFileRoute('/verify-email')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => verifySearchSchema.parse(search),
  component: VerifyEmailRoute,
})

function VerifyEmailRoute() {
  const { token } = Route.useSearch()
  return <VerifyEmailPage token={token} />
}
