import { lazy, Suspense, type ReactNode } from 'react'
import { SiteFooter } from './SiteFooter'
import { SiteHeader } from './SiteHeader'
import { SiteTheme } from './SiteTheme'

// Radix Toast loads right after the first paint instead of with the app. The
// tiny toast store lives in the entry and keeps its toast until the Toaster
// mounts, so a toast raised before then is still shown.
const Toaster = lazy(() => import('@/components/toast/Toaster').then((module) => ({ default: module.Toaster })))

export function SiteLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        onClick={(event) => {
          // Move focus without changing the URL hash, which the router would treat as navigation.
          event.preventDefault()
          document.getElementById('main')?.focus()
        }}
        className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <SiteTheme />
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <SiteFooter />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </div>
  )
}
