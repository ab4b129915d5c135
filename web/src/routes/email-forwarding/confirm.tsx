import { createFileRoute } from '@tanstack/react-router'
// zod/mini: route definitions load with the app, so their schemas stay small.
import * as z from 'zod/mini'
import { ConfirmForwardingPage } from '@/features/email-forwarding/components/ConfirmForwardingPage'

// ?token= comes from the link mailed to a forwarding address. A missing or
// malformed one opens the page anyway, which then says that the link cannot
// be used.
const confirmSearchSchema = z.object({
  token: z.catch(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))), undefined),
})

export const Route = createFileRoute('/email-forwarding/confirm')({
  validateSearch: (search: Record<string, unknown>): { token?: string } => confirmSearchSchema.parse(search),
  component: ConfirmForwardingRoute,
})

function ConfirmForwardingRoute() {
  const { token } = Route.useSearch()
  return <ConfirmForwardingPage token={token} />
}
