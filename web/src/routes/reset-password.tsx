import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { ResetPasswordPage } from '@/features/auth/components/ResetPasswordPage'

// ?token= comes from the emailed link; a missing or malformed one opens the
// page anyway, which then explains that the link cannot be used.
const resetSearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), undefined),
})

export const Route = createFileRoute('/reset-password')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => resetSearchSchema.parse(search),
  component: ResetPasswordRoute,
})

function ResetPasswordRoute() {
  const { token } = Route.useSearch()
  return <ResetPasswordPage token={token} />
}
