import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Crown } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { formatUsd } from '@/lib/format'
import { premiumDomainsQueryOptions } from '../api/catalog'

export function PremiumTeaser() {
  const { data, isPending, isError } = useQuery(premiumDomainsQueryOptions())
  const featured = data?.slice(0, 3) ?? []

  return (
    <div className="mt-16 rounded-3xl bg-gradient-to-br from-amber-50 via-white to-brand-50 p-6 ring-1 ring-amber-200/60 sm:p-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="inline-flex items-center gap-1.5 text-sm font-semibold text-amber-700">
            <Crown className="h-4 w-4" aria-hidden />
            Premium domains
          </p>
          <h3 className="mt-2 text-2xl font-bold tracking-tight text-slate-900">Short, memorable, ready to use</h3>
          <p className="mt-2 max-w-xl text-slate-600">Hand-picked names that make a strong first impression.</p>
        </div>
        {/* The premium catalogue screen comes in a later release; until then the router shows its not-found page. */}
        <Link to={'/premium-domains' as '/'} className={buttonStyles({ variant: 'outline' })}>
          View All Premium Domains
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </div>

      <div className="mt-8">
        {isPending ? (
          <p className="flex items-center gap-2 text-slate-600">
            <Spinner className="h-4 w-4" />
            Loading premium domains...
          </p>
        ) : isError ? (
          <p className="text-slate-600">Premium domains could not be loaded right now.</p>
        ) : featured.length === 0 ? (
          <p className="text-slate-600">No premium domains available at the moment</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-3">
            {featured.map((domain) => (
              <li key={domain.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
                <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
                  <Crown className="h-3 w-3" aria-hidden />
                  Premium
                </span>
                <p className="mt-3 break-all text-lg font-semibold text-slate-900">
                  {domain.name}
                  <span className="text-slate-500">{domain.extension}</span>
                </p>
                <p className="mt-1 text-sm text-slate-600">
                  <span className="font-semibold text-slate-900">{formatUsd(domain.price)}</span> per year
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
