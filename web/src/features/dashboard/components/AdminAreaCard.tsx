import { Link } from '@tanstack/react-router'
import { ArrowRight, ShieldCheck } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import type { User } from '@/lib/session'

/**
 * The way into the admin area for an admin on the end-user dashboard: the
 * spec sends every user here after sign-in, and nothing else on the page
 * says that /admin-dashboard exists.
 */
export function AdminAreaCard({ user }: { user: Pick<User, 'userType'> }) {
  if (user.userType !== 'admin') return null
  return (
    <section
      aria-label="Admin area"
      className="mb-6 flex flex-col gap-4 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:flex-row sm:items-center"
    >
      <ShieldCheck className="h-6 w-6 shrink-0 text-brand-600" aria-hidden />
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold text-slate-900">Admin area</h2>
        <p className="text-sm text-slate-600">
          Manage extensions and pricing, premium domains, users, payment gateways, settings and jobs.
        </p>
      </div>
      <Link to="/admin-dashboard" className={buttonStyles({ variant: 'primary', className: 'shrink-0' })}>
        Open admin dashboard
        <ArrowRight className="h-4 w-4" aria-hidden />
      </Link>
    </section>
  )
}
