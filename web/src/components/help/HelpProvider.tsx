import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'
import { helpRoleFromPath, type HelpRole } from './topics'

interface HelpContextValue {
  /** Whether contextual help icons are shown. Starts on. */
  enabled: boolean
  setEnabled: (enabled: boolean) => void
  toggle: () => void
  /** Help is generated in the browser, so it is always available. */
  aiAvailable: true
  /** Whom the help texts are written for; derived from the path at startup. */
  userRole: HelpRole
  setUserRole: (role: HelpRole) => void
}

const HelpContext = createContext<HelpContextValue | null>(null)

/** Holds the help system's on/off flag and the role its texts address. */
export function HelpProvider({
  children,
  initiallyEnabled = true,
  initialPath = typeof window === 'undefined' ? '/' : window.location.pathname,
}: {
  children: ReactNode
  initiallyEnabled?: boolean
  /** The path the app opened at; tests pass the path they render. */
  initialPath?: string
}) {
  const [enabled, setEnabled] = useState(initiallyEnabled)
  const [userRole, setUserRole] = useState<HelpRole>(() => helpRoleFromPath(initialPath))
  const value = useMemo<HelpContextValue>(
    () => ({
      enabled,
      setEnabled,
      toggle: () => setEnabled((on) => !on),
      aiAvailable: true,
      userRole,
      setUserRole,
    }),
    [enabled, userRole],
  )
  return <HelpContext.Provider value={value}>{children}</HelpContext.Provider>
}

export function useHelp(): HelpContextValue {
  const context = useContext(HelpContext)
  if (!context) throw new Error('useHelp must be used within a HelpProvider')
  return context
}
