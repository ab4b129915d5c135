import { Star, Tag } from 'lucide-react'
import { PremiumPrice } from '@/components/PremiumPrice'
import { RegisterNowButton } from '@/components/RegisterNowButton'
import { Badge, PremiumBadge } from '@/components/ui/badge'
import { capitalise, currentPriceOf, type PremiumDomain } from '@/lib/catalog'

/** How many keywords a card lists before "+N" (spec section 9). */
const KEYWORDS_SHOWN = 2

/** A premium name of the catalogue: badges, description, keywords, price and Register Now. */
export function PremiumCard({ domain }: { domain: PremiumDomain }) {
  const name = `${domain.name}${domain.extension}`
  const keywords = domain.keywords ?? []
  const rest = keywords.slice(KEYWORDS_SHOWN)
  return (
    <article
      aria-label={name}
      className="flex w-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md"
    >
      <div className="flex flex-wrap items-center gap-2">
        <PremiumBadge className="font-semibold" />
        {domain.featured && (
          <Badge tone="brand" className="font-semibold">
            <Star className="h-3 w-3 fill-current" aria-hidden />
            Featured
          </Badge>
        )}
        {domain.category && (
          <span className="ml-auto text-xs font-medium uppercase tracking-wide text-slate-500">
            <span className="sr-only">Category: </span>
            {capitalise(domain.category)}
          </span>
        )}
      </div>
      <h2 className="mt-4 break-all text-2xl font-bold tracking-tight text-slate-900">
        {domain.name}
        <span className="text-slate-500">{domain.extension}</span>
      </h2>
      {domain.description && <p className="mt-2 text-sm leading-6 text-slate-600">{domain.description}</p>}
      {keywords.length > 0 && (
        <ul aria-label="Keywords" className="mt-3 flex flex-wrap gap-1.5">
          {keywords.slice(0, KEYWORDS_SHOWN).map((keyword) => (
            <li key={keyword}>
              <Badge tone="neutral">
                <Tag className="h-3 w-3" aria-hidden />
                {keyword}
              </Badge>
            </li>
          ))}
          {rest.length > 0 && (
            <li>
              <Badge tone="muted" title={rest.join(', ')}>
                +{rest.length}
                <span className="sr-only"> more: {rest.join(', ')}</span>
              </Badge>
            </li>
          )}
        </ul>
      )}
      <div className="mt-auto pt-6">
        <PremiumPrice domain={domain} details size="lg" />
        <RegisterNowButton
          target={{ name: domain.name, extension: domain.extension, isPremium: true, price: currentPriceOf(domain) }}
          returnTo={`/premium-domains?${new URLSearchParams({ q: name })}`}
          className="mt-4 w-full"
        />
      </div>
    </article>
  )
}
