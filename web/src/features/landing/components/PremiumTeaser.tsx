import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Crown } from 'lucide-react'
import { PremiumPrice } from '@/components/PremiumPrice'
import { PremiumBadge } from '@/components/ui/badge'
import { buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { premiumDomainsQueryOptions } from '@/lib/catalog'
import { DomainName } from '@/components/DomainName'

/** How many premium names the landing page shows (spec section 9). */
const TEASER_SIZE = 3

export function PremiumTeaser() {
  const { data, isPending, isError } = useQuery(premiumDomainsQueryOptions())
  // The server lists featured names first, so the first three are the showcase.
  const shown = data?.slice(0, TEASER_SIZE) ?? []

  return (
    <div
      role="region"
      aria-labelledby="premium-teaser-title"
      className="mt-16 rounded-3xl bg-gradient-to-br from-amber-50 via-white to-brand-50 p-6 ring-1 ring-amber-200/60 sm:p-10"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="inline-flex items-center gap-1.5 text-sm font-semibold text-amber-700">
            <Crown className="h-4 w-4" aria-hidden />
            Premium domains
          </p>
          <h3 id="premium-teaser-title" className="mt-2 text-2xl font-bold tracking-tight text-slate-900">
            Short, memorable, ready to use
          </h3>
          <p className="mt-2 max-w-xl text-slate-600">Hand-picked names that make a strong first impression.</p>
        </div>
        <Link to="/premium-domains" className={buttonStyles({ variant: 'outline' })}>
          View All Premium Domains
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </div>

      <div className="mt-8">
        {isPending ? (
          <p className="flex items-center gap-2 text-slate-600">
            <Spinner className="h-4 w-4" label="Loading premium domains" />
            Loading premium domains...
          </p>
        ) : isError ? (
          <p className="text-slate-600">Premium domains could not be loaded right now.</p>
        ) : shown.length === 0 ? (
          <p className="text-slate-600">No premium domains available at the moment</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-3">
            {shown.map((domain) => (
              <li key={domain.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
                <PremiumBadge className="font-semibold" />
                <p className="mt-3 text-lg font-semibold text-slate-900">
                  <DomainName>{domain.name}</DomainName>
                  <span className="text-slate-500">
                    <wbr />
                    <DomainName>{domain.extension}</DomainName>
                  </span>
                </p>
                <PremiumPrice domain={domain} className="mt-1" />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}
