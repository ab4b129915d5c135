import { useState } from 'react'
import type { RegistrationTarget } from '@/components/registration/registrationContext'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { landingSearchPath } from '@/lib/redirect'
import type { RegistrationRequest } from './RegistrationHost'
import { RegisterStep } from './RegisterStep'
import { SearchStep } from './SearchStep'

/**
 * The registration dialog: the register step for one name, or (from the
 * dashboards) a search step first.
 */
export default function RegistrationDialog({
  request,
  onClose,
}: {
  request: RegistrationRequest
  onClose: () => void
}) {
  const [chosen, setChosen] = useState<{ target: RegistrationTarget; returnTo?: string } | null>(
    request.mode === 'name' ? { target: request.target, returnTo: request.returnTo } : null,
  )
  // While a registration is on its way the dialog stays: closing it would hide the outcome.
  const [busy, setBusy] = useState(false)

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent hideClose={busy}>
        {chosen ? (
          <RegisterStep
            key={`${chosen.target.name}${chosen.target.extension}`}
            target={chosen.target}
            returnTo={chosen.returnTo ?? landingSearchPath(chosen.target.name, chosen.target.extension)}
            onBack={request.mode === 'search' ? () => setChosen(null) : undefined}
            onBusyChange={setBusy}
            onClose={onClose}
          />
        ) : (
          <SearchStep onChoose={(target) => setChosen({ target })} onClose={onClose} />
        )}
      </DialogContent>
    </Dialog>
  )
}

