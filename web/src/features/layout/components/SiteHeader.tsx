import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Link, useRouterState } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { CircleHelp, Menu, ShieldCheck, X } from 'lucide-react'
import { useHelp } from '@/components/help/HelpProvider'
import { Tooltip } from '@/components/ui/Tooltip'
import { buttonStyles } from '@/components/ui/button'
import { cx } from '@/lib/classNames'
import { currentUserQueryOptions, dashboardPathFor, type User } from '@/lib/session'
import { BrandLogo } from './BrandLogo'

const navLinks = [
  { label: 'Home', hash: '' },
  { label: 'Domains', hash: 'domains' },
  { label: 'Features', hash: 'features' },
  { label: 'Pricing', hash: 'pricing' },
  { label: 'API', hash: 'api' },
  { label: 'Contact', hash: 'contact' },
] as const

// A nav link is current only on the landing page at its own section, so Home
// is not highlighted on /#pricing or on other pages.
const sectionMatch = { exact: true, includeHash: true } as const

export function SiteHeader() {
  // Cache only: the screens and the app start load the current user; the
  // header never triggers the request itself.
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const { pathname, hash } = useRouterState({
    select: (s) => ({ pathname: s.location.pathname, hash: s.location.hash }),
  })
  const { enabled: helpEnabled, toggle: toggleHelp } = useHelp()
  const [menuOpen, setMenuOpen] = useState(false)

  // Close the mobile panel whenever the location changes.
  useEffect(() => setMenuOpen(false), [pathname, hash])

  // Escape closes the panel and puts focus back on the button that opened it.
  const menuButton = useRef<HTMLButtonElement>(null)
  function closeMenuOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape') return
    setMenuOpen(false)
    menuButton.current?.focus()
  }

  return (
    <header
      onKeyDown={menuOpen ? closeMenuOnEscape : undefined}
      className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75"
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8">
        <Link
          to="/"
          className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <BrandLogo />
        </Link>

        <nav aria-label="Main" className="ml-6 hidden items-center gap-1 md:flex">
          {navLinks.map((link) => (
            <Link
              key={link.label}
              to="/"
              hash={link.hash || undefined}
              activeOptions={sectionMatch}
              className="rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 data-[status=active]:bg-brand-50 data-[status=active]:text-brand-700"
            >
              {link.label}
            </Link>
          ))}
        </nav>

        <div className="ml-auto hidden items-center gap-2 md:flex">
          <Tooltip content={helpEnabled ? 'Disable AI help tooltips' : 'Enable AI help tooltips'}>
            <button
              type="button"
              onClick={toggleHelp}
              aria-pressed={helpEnabled}
              aria-label={helpEnabled ? 'Disable AI help tooltips' : 'Enable AI help tooltips'}
              className={cx(
                buttonStyles({ variant: 'ghost', size: 'icon' }),
                helpEnabled ? 'text-brand-600 hover:text-brand-700' : 'text-slate-400',
              )}
            >
              <CircleHelp className="h-5 w-5" aria-hidden />
            </button>
          </Tooltip>
          <AuthButtons user={user} />
        </div>

        <button
          ref={menuButton}
          type="button"
          className={cx(buttonStyles({ variant: 'ghost', size: 'icon' }), 'ml-auto md:hidden')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="h-5 w-5" aria-hidden /> : <Menu className="h-5 w-5" aria-hidden />}
        </button>
      </div>

      {menuOpen && (
        <div id="mobile-menu" className="border-t border-slate-200 bg-white md:hidden">
          <nav aria-label="Mobile" className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3">
            {navLinks.map((link) => (
              <Link
                key={link.label}
                to="/"
                hash={link.hash || undefined}
                activeOptions={sectionMatch}
                onClick={() => setMenuOpen(false)}
                className="rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100 data-[status=active]:bg-brand-50 data-[status=active]:text-brand-700"
              >
                {link.label}
              </Link>
            ))}
            <button
              type="button"
              onClick={toggleHelp}
              aria-pressed={helpEnabled}
              className="flex items-center gap-2 rounded-lg px-3 py-2.5 text-left text-base font-medium text-slate-700 hover:bg-slate-100"
            >
              <CircleHelp className={cx('h-5 w-5', helpEnabled ? 'text-brand-600' : 'text-slate-400')} aria-hidden />
              {helpEnabled ? 'Disable AI Help' : 'Enable AI Help'}
            </button>
            <div className="mt-2 grid grid-cols-2 gap-2 border-t border-slate-200 pt-3">
              <AuthButtons user={user} onNavigate={() => setMenuOpen(false)} block />
            </div>
          </nav>
        </div>
      )}
    </header>
  )
}

function AuthButtons({
  user,
  onNavigate,
  block = false,
}: {
  user: User | null | undefined
  onNavigate?: () => void
  block?: boolean
}) {
  const width = block ? 'w-full' : undefined
  if (user) {
    return (
      <>
        {user.userType === 'admin' && (
          <Link
            to="/admin-dashboard"
            onClick={onNavigate}
            className={buttonStyles({ variant: 'outline', className: cx(width, block && 'col-span-2') })}
          >
            <ShieldCheck className="h-4 w-4" aria-hidden />
            Admin
          </Link>
        )}
        <Link
          to={dashboardPathFor(user)}
          onClick={onNavigate}
          className={buttonStyles({ variant: 'outline', className: width })}
        >
          Dashboard
        </Link>
        <Link
          to="/logout"
          preload={false}
          onClick={onNavigate}
          className={buttonStyles({ variant: 'ghost', className: width })}
        >
          Log out
        </Link>
      </>
    )
  }
  return (
    <>
      <Link to="/login" onClick={onNavigate} className={buttonStyles({ variant: 'ghost', className: width })}>
        Log in
      </Link>
      <Link to="/register" onClick={onNavigate} className={buttonStyles({ variant: 'primary', className: width })}>
        Register
      </Link>
    </>
  )
}
