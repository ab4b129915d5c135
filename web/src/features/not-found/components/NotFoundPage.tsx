import { Link } from '@tanstack/react-router'
import { Globe, Home, Search, Settings } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { HelpTooltip } from '@/components/help/HelpTooltip'

export function NotFoundPage() {
  useDocumentTitle('404 Not Found')
  return (
    <div className="relative overflow-hidden">
      <div className="absolute inset-x-0 top-0 -z-10 h-72 bg-gradient-to-b from-brand-50 to-white" aria-hidden />
      <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-20 text-center sm:py-28">
        <span className="flex h-16 w-16 items-center justify-center rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          <Globe className="h-8 w-8 text-brand-600" aria-hidden />
        </span>
        <div className="mt-6 flex items-center gap-1">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">404 Not Found</p>
          <HelpTooltip topic="not-found" userAction="opening a page that does not exist" />
        </div>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">This domain doesn't exist</h1>
        <p className="mt-4 text-base text-slate-600">
          The page you're looking for may have been removed, renamed, or never existed.
        </p>
        <p className="mt-2 text-base text-slate-600">
          Why not register a domain of your own with <strong className="font-semibold text-slate-900">.inf.nz</strong>,{' '}
          <strong className="font-semibold text-slate-900">.biz.ee</strong> and{' '}
          <strong className="font-semibold text-slate-900">.orgn.uk</strong>?
        </p>
        <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Link to="/" className={buttonStyles({ variant: 'outline' })}>
            <Home className="h-4 w-4" aria-hidden />
            Home
          </Link>
          <Link to="/domain-management" className={buttonStyles({ variant: 'outline' })}>
            <Settings className="h-4 w-4" aria-hidden />
            Manage Domains
          </Link>
          <Link to="/" className={buttonStyles()}>
            <Search className="h-4 w-4" aria-hidden />
            Search Domains
          </Link>
        </div>
      </div>
    </div>
  )
}
