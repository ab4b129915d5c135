import { createContext, useContext, useMemo, useState, type ReactNode } from 'react'

interface HelpContextValue {
  /** Whether contextual help icons are shown. Starts on. */
  enabled: boolean
  setEnabled: (enabled: boolean) => void
  toggle: () => void
}

const HelpContext = createContext<HelpContextValue | null>(null)

/** Holds the help system's on/off flag; the topic tooltips themselves come later. */
export function HelpProvider({
  children,
  initiallyEnabled = true,
}: {
  children: ReactNode
  initiallyEnabled?: boolean
}) {
  const [enabled, setEnabled] = useState(initiallyEnabled)
  const value = useMemo(() => ({ enabled, setEnabled, toggle: () => setEnabled((on) => !on) }), [enabled])
  return <HelpContext.Provider value={value}>{children}</HelpContext.Provider>
}

export function useHelp(): HelpContextValue {
  const context = useContext(HelpContext)
  if (!context) throw new Error('useHelp must be used within a HelpProvider')
  return context
}
