import { useEffect } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, CalendarClock, CalendarPlus, Crown } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { formatDate } from '@/lib/format'
import { currentUserQueryOptions, dashboardPathFor } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { domainQueryOptions } from '../api/domains'

export function DomainManagementPage({ id }: { id: string }) {
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const { data: domain, isError } = useQuery(domainQueryOptions(id))
  const navigate = useNavigate()
  const dashboardPath = dashboardPathFor(user)
  useDocumentTitle(domain ? `${domain.name}${domain.extension}` : 'Domain')

  useEffect(() => {
    if (!isError) return
    toast({ variant: 'destructive', title: 'Error', description: 'Could not load domain information' })
    void navigate({ to: dashboardPath, replace: true })
  }, [isError, navigate, dashboardPath])

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <Link to={dashboardPath} className={buttonStyles({ variant: 'ghost', size: 'sm', className: '-ml-3' })}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to Dashboard
      </Link>

      {!domain ? (
        <div className="flex justify-center py-24">
          <Spinner className="h-8 w-8" label="Loading domain" />
        </div>
      ) : (
        <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="break-all text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              {domain.name}
              {domain.extension}
            </h1>
            {domain.isPremium && (
              <Badge tone="premium">
                <Crown className="h-3 w-3" aria-hidden />
                Premium
              </Badge>
            )}
          </div>
          <dl className="mt-4 flex flex-wrap gap-x-8 gap-y-2 text-sm text-slate-600">
            <div className="flex items-center gap-2">
              <CalendarPlus className="h-4 w-4 text-slate-400" aria-hidden />
              <dt>Registered</dt>
              <dd className="font-medium text-slate-900">{formatDate(domain.registeredAt)}</dd>
            </div>
            <div className="flex items-center gap-2">
              <CalendarClock className="h-4 w-4 text-slate-400" aria-hidden />
              <dt>Expires</dt>
              <dd className="font-medium text-slate-900">{formatDate(domain.expiresAt)}</dd>
            </div>
          </dl>
        </div>
      )}
    </div>
  )
}
