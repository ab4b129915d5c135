import { createContext, useContext } from 'react'

/** A name on sale, as a search result or a premium card shows it. */
export interface RegistrationTarget {
  /** The label, without the extension. */
  name: string
  /** With its leading dot, e.g. ".biz.ee". */
  extension: string
  isPremium: boolean
  /** The caller's yearly price in dollars. */
  price: number
}

export interface Registration {
  /**
   * Opens the registration dialog for one name. `returnTo` is the page to come
   * back to after adding funds (the search or card that offered the name).
   */
  register: (target: RegistrationTarget, options?: { returnTo?: string }) => void
  /** Opens the dialog at its search step (the dashboards' Register Domain). */
  searchAndRegister: () => void
  /** Starts loading the dialog's code, so it opens without a wait. */
  preload: () => void
}

/**
 * Provided by the registration feature around every page (the root route
 * mounts it), so landing, premium and dashboard screens can open the dialog
 * without importing that feature.
 */
export const RegistrationContext = createContext<Registration | null>(null)

export function useRegistration(): Registration {
  const context = useContext(RegistrationContext)
  if (!context) throw new Error('useRegistration must be used within a RegistrationHost')
  return context
}
