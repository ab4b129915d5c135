import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Button, buttonStyles, type ButtonSize } from '@/components/ui/button'
import { landingSearchPath } from '@/lib/redirect'
import { currentUserQueryOptions } from '@/lib/session'
import { useRegistration, type RegistrationTarget } from './registration/registrationContext'

/**
 * 'Register Now' for a name that can be bought. A logged-in customer gets the
 * registration dialog; a visitor goes to sign up and comes back to `returnTo`
 * (by default the landing page searching the name) to click again.
 */
export function RegisterNowButton({
  target,
  returnTo,
  size = 'md',
  className,
}: {
  target: RegistrationTarget
  /** The page that offers the name again; defaults to the landing search for it. */
  returnTo?: string
  size?: ButtonSize
  className?: string
}) {
  // The current user comes from the cache the root route fills; no request of its own.
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const registration = useRegistration()
  const fullName = `${target.name}${target.extension}`
  const back = returnTo ?? landingSearchPath(target.name, target.extension)

  if (!user) {
    return (
      <Link
        to="/register"
        search={{ redirect: back }}
        className={buttonStyles({ size, className })}
        aria-description={`Register ${fullName}`}
      >
        Register Now
      </Link>
    )
  }
  return (
    <Button
      size={size}
      className={className}
      aria-description={`Register ${fullName}`}
      onMouseEnter={registration.preload}
      onFocus={registration.preload}
      onClick={() => registration.register(target, { returnTo: back })}
    >
      Register Now
    </Button>
  )
}
