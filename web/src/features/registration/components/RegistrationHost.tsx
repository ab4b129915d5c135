import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react'
import { useRouterState } from '@tanstack/react-router'
import {
  RegistrationContext,
  type Registration,
  type RegistrationTarget,
} from '@/components/registration/registrationContext'

const loadDialog = () => import('./RegistrationDialog')
// The dialog's code (forms, Radix Dialog) loads when it is first wanted, not with the app.
const RegistrationDialog = lazy(loadDialog)

export type RegistrationRequest = { mode: 'name'; target: RegistrationTarget; returnTo?: string } | { mode: 'search' }

/**
 * Provides `useRegistration()` to every page and shows the registration
 * dialog when a page asks for it. A new request opens a fresh dialog (a new
 * idempotency key); leaving the page closes it.
 */
export function RegistrationHost({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<{ id: number; value: RegistrationRequest } | null>(null)
  const open = useCallback(
    (value: RegistrationRequest) => setRequest((prev) => ({ id: (prev?.id ?? 0) + 1, value })),
    [],
  )
  const close = useCallback(() => setRequest(null), [])

  const registration = useMemo<Registration>(
    () => ({
      register: (target, options) => open({ mode: 'name', target, returnTo: options?.returnTo }),
      searchAndRegister: () => open({ mode: 'search' }),
      preload: () => void loadDialog(),
    }),
    [open],
  )

  const pathname = useRouterState({ select: (state) => state.location.pathname })
  useEffect(() => close(), [pathname, close])

  return (
    <RegistrationContext.Provider value={registration}>
      {children}
      {request && (
        <Suspense fallback={null}>
          <RegistrationDialog key={request.id} request={request.value} onClose={close} />
        </Suspense>
      )}
    </RegistrationContext.Provider>
  )
}
