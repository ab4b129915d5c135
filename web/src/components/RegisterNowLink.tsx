import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { buttonStyles, type ButtonSize } from '@/components/ui/button'
import { currentUserQueryOptions, dashboardPathFor } from '@/lib/session'

/**
 * 'Register Now' for a name that can be bought. Checkout arrives with domain
 * registration; until then a visitor starts by creating an account and a
 * logged-in customer goes to their dashboard.
 */
export function RegisterNowLink({
  domain,
  size = 'md',
  className,
}: {
  /** The full name, for the accessible description. */
  domain: string
  size?: ButtonSize
  className?: string
}) {
  // The current user comes from the cache the root route fills; no request of its own.
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  return (
    <Link
      to={user ? dashboardPathFor(user) : '/register'}
      className={buttonStyles({ size, className })}
      aria-description={`Register ${domain}`}
    >
      Register Now
    </Link>
  )
}
