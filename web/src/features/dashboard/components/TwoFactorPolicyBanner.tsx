import { useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ShieldAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { currentUserQueryOptions } from '@/lib/session'
import { twoFactorQueryOptions } from '../api/accountSecurity'

/**
 * Asks an account the site requires two-factor sign-in of (every admin;
 * registrars when an admin says so) to set it up, after sign-in; onSetUp
 * opens Account Settings. A held account (setupEnforced: an admin made
 * after two-factor sign-in came, or a registrar while the site requires
 * it; the tools of its role answer two_factor_setup_required) gets the
 * settings opened at once and is told so. Shows nothing once
 * an authenticator app or a passkey is set up.
 */
export function TwoFactorPolicyBanner({ onSetUp }: { onSetUp: () => void }) {
  const { data } = useQuery(twoFactorQueryOptions())
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const tools = user?.userType === 'admin' ? 'Admin tools' : 'Registrar tools'
  const enforced = Boolean(data?.setupEnforced)
  useEffect(() => {
    if (enforced) onSetUp()
    // Once, when the hold is learnt; the account may move on to other tabs.
  }, [enforced])
  if (!data?.setupRequired && !enforced) return null
  return (
    <div
      role="region"
      aria-label="Two-factor sign-in required"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center"
    >
      <ShieldAlert className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <p className="flex-1">
        <span className="font-semibold">Set up two-factor sign-in.</span>{' '}
        {enforced
          ? `${tools} stay closed until you add a passkey or an authenticator app below.`
          : 'Your account must sign in with a passkey or a code from an authenticator app as well as your password.'}
      </p>
      <Button size="sm" variant="outline" onClick={onSetUp}>
        Set up now
      </Button>
    </div>
  )
}
