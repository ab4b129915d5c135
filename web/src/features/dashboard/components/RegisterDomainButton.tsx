import { Plus } from 'lucide-react'
import { useRegistration } from '@/components/registration/registrationContext'
import { Button } from '@/components/ui/button'

/** The dashboards' Register Domain: the registration dialog, starting with a search. */
export function RegisterDomainButton() {
  const registration = useRegistration()
  return (
    <Button onMouseEnter={registration.preload} onFocus={registration.preload} onClick={registration.searchAndRegister}>
      <Plus className="h-4 w-4" aria-hidden />
      Register Domain
    </Button>
  )
}
