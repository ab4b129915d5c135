import { useQuery } from '@tanstack/react-query'
import { ShieldAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { twoFactorQueryOptions } from '../api/accountSecurity'

/**
 * Asks an account the site requires two-factor sign-in of (every admin;
 * registrars when an admin says so) to set it up, after sign-in; onSetUp
 * opens Account Settings. Shows nothing once it is on.
 */
export function TwoFactorPolicyBanner({ onSetUp }: { onSetUp: () => void }) {
  const { data } = useQuery(twoFactorQueryOptions())
  if (!data?.setupRequired) return null
  return (
    <div
      role="region"
      aria-label="Two-factor sign-in required"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center"
    >
      <ShieldAlert className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <p className="flex-1">
        <span className="font-semibold">Set up two-factor sign-in.</span> Your account must sign in with a code from an
        authenticator app as well as your password.
      </p>
      <Button size="sm" variant="outline" onClick={onSetUp}>
        Set up now
      </Button>
    </div>
  )
}
