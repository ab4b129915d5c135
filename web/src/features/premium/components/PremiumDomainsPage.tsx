import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Crown, Search, SearchX, Sparkles, Star, Tag, X } from 'lucide-react'
import { PremiumPrice } from '@/components/PremiumPrice'
import { RegisterNowButton } from '@/components/RegisterNowButton'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import {
  capitalise,
  currentPriceOf,
  premiumCategories,
  premiumDomainsQueryOptions,
  type PremiumCategory,
  type PremiumDomain,
  type PremiumSort,
} from '@/lib/catalog'
import { premiumDiscountLabel } from '@/lib/registrarTiers'
import { currentUserQueryOptions } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

export interface PremiumFilters {
  q?: string
  category?: PremiumCategory
  sort?: PremiumSort
}

const sortOptions: { value: PremiumSort | ''; label: string }[] = [
  { value: '', label: 'Featured' },
  { value: 'price-asc', label: 'Price: low to high' },
  { value: 'price-desc', label: 'Price: high to low' },
  { value: 'name-asc', label: 'Name: A to Z' },
  { value: 'name-desc', label: 'Name: Z to A' },
]

/** How many keywords a card lists before "+N" (spec section 9). */
const KEYWORDS_SHOWN = 2
/** Typing waits this long before it reaches the address bar. */
const QUERY_DELAY_MS = 250

function fullName(domain: PremiumDomain) {
  return `${domain.name}${domain.extension}`
}

function byName(a: PremiumDomain, b: PremiumDomain) {
  return fullName(a).localeCompare(fullName(b))
}

function matches(domain: PremiumDomain, needle: string) {
  if (!needle) return true
  const haystack = [fullName(domain), domain.description ?? '', ...(domain.keywords ?? [])]
  return haystack.some((text) => text.toLowerCase().includes(needle))
}

function sortDomains(domains: PremiumDomain[], sort: PremiumSort | undefined) {
  const sorted = [...domains]
  switch (sort) {
    case 'price-asc':
      return sorted.sort((a, b) => currentPriceOf(a) - currentPriceOf(b) || byName(a, b))
    case 'price-desc':
      return sorted.sort((a, b) => currentPriceOf(b) - currentPriceOf(a) || byName(a, b))
    case 'name-asc':
      return sorted.sort(byName)
    case 'name-desc':
      return sorted.sort((a, b) => byName(b, a))
    default:
      // The server's order: featured first, then by name.
      return sorted.sort((a, b) => Number(Boolean(b.featured)) - Number(Boolean(a.featured)) || byName(a, b))
  }
}

/**
 * The premium catalogue: every available premium name, searchable, filtered
 * by category and sorted. The filters live in the address (see the route), so
 * a filtered list can be linked to.
 */
export function PremiumDomainsPage({
  filters,
  onFiltersChange,
}: {
  filters: PremiumFilters
  onFiltersChange: (next: PremiumFilters, options?: { replace?: boolean }) => void
}) {
  useDocumentTitle('Premium Domains')
  const { data, isPending, isError, refetch, isFetching } = useQuery(premiumDomainsQueryOptions())
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })

  // The search box keeps its own text so typing stays immediate; the address
  // follows a moment later. `pushed` remembers what we put there, so only a
  // change from elsewhere (Back, a link) overwrites the box.
  const [text, setText] = useState(filters.q ?? '')
  const pushed = useRef(filters.q ?? '')
  useEffect(() => {
    const fromAddress = filters.q ?? ''
    if (fromAddress !== pushed.current) {
      pushed.current = fromAddress
      setText(fromAddress)
    }
  }, [filters.q])
  const latest = useRef({ filters, onFiltersChange })
  latest.current = { filters, onFiltersChange }
  useEffect(() => {
    const next = text.trim()
    if (next === pushed.current) return
    const timer = setTimeout(() => {
      pushed.current = next
      latest.current.onFiltersChange({ ...latest.current.filters, q: next || undefined }, { replace: true })
    }, QUERY_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text])

  const needle = useDeferredValue(text.trim().toLowerCase())
  const available = useMemo(() => (data ?? []).filter((domain) => domain.isAvailable !== false), [data])
  const shown = useMemo(
    () =>
      sortDomains(
        available.filter(
          (domain) => (!filters.category || domain.category === filters.category) && matches(domain, needle),
        ),
        filters.sort,
      ),
    [available, filters.category, filters.sort, needle],
  )

  const filtering = Boolean(text.trim() || filters.category)
  const clearFilters = () => {
    pushed.current = ''
    setText('')
    onFiltersChange({ sort: filters.sort })
  }

  const ids = { search: useId(), category: useId(), sort: useId() }
  const registrarTier = user?.userType === 'registrar' ? user.tier : undefined

  return (
    <div className="bg-slate-50">
      <div className="relative isolate overflow-hidden bg-slate-950 text-white">
        <div
          aria-hidden
          className="absolute inset-0 -z-10 bg-[radial-gradient(50rem_24rem_at_20%_-20%,rgba(245,158,11,0.28),transparent),radial-gradient(40rem_20rem_at_90%_120%,rgba(99,102,241,0.45),transparent)]"
        />
        <div className="mx-auto max-w-7xl px-4 pb-12 pt-12 sm:px-6 sm:pb-16 sm:pt-16 lg:px-8">
          <p className="inline-flex items-center gap-1.5 rounded-full bg-amber-400/15 px-3 py-1 text-xs font-semibold text-amber-200 ring-1 ring-amber-300/30">
            <Crown className="h-3.5 w-3.5" aria-hidden />
            Premium collection
          </p>
          <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-5xl">Premium Domains</h1>
          <p className="mt-3 max-w-2xl text-base text-slate-300 sm:text-lg">
            Short, memorable names, hand-picked and ready to register today. Each one is a one-off: once it is
            registered, it is gone.
          </p>
          {registrarTier && (
            <p className="mt-4 inline-flex items-center gap-1.5 rounded-lg bg-white/10 px-3 py-1.5 text-sm text-brand-100 ring-1 ring-white/15">
              <Sparkles className="h-4 w-4" aria-hidden />
              Prices shown are your partner prices ({premiumDiscountLabel(registrarTier)}).
            </p>
          )}
        </div>
      </div>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-10 lg:px-8">
        <form
          role="search"
          aria-label="Filter premium domains"
          onSubmit={(event) => event.preventDefault()}
          className="grid grid-cols-2 items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 md:grid-cols-[minmax(0,1fr)_12rem_12rem]"
        >
          <div className="col-span-2 space-y-1.5 md:col-span-1">
            <label htmlFor={ids.search} className="block text-sm font-medium text-slate-700">
              Search
            </label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
                aria-hidden
              />
              <input
                id={ids.search}
                type="search"
                value={text}
                onChange={(event) => setText(event.target.value)}
                placeholder="Name, keyword or description"
                autoComplete="off"
                spellCheck={false}
                className="block h-10 w-full rounded-lg border border-slate-300 bg-white pl-9 pr-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
              />
            </div>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.category} className="block text-sm font-medium text-slate-700">
              Category
            </label>
            <select
              id={ids.category}
              value={filters.category ?? ''}
              onChange={(event) =>
                onFiltersChange({
                  ...filters,
                  category: (event.target.value || undefined) as PremiumCategory | undefined,
                })
              }
              className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 pr-8 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
            >
              <option value="">All</option>
              {premiumCategories.map((category) => (
                <option key={category} value={category}>
                  {capitalise(category)}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor={ids.sort} className="block text-sm font-medium text-slate-700">
              Sort by
            </label>
            <select
              id={ids.sort}
              value={filters.sort ?? ''}
              onChange={(event) =>
                onFiltersChange({ ...filters, sort: (event.target.value || undefined) as PremiumSort | undefined })
              }
              className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 pr-8 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
            >
              {sortOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        </form>

        <div className="mt-8">
          {isPending ? (
            <p className="flex items-center justify-center gap-2 py-16 text-slate-600">
              <Spinner className="h-5 w-5" label="Loading premium domains" />
              Loading premium domains...
            </p>
          ) : isError ? (
            <div role="alert" className="rounded-2xl bg-white px-6 py-16 text-center shadow-sm ring-1 ring-slate-200">
              <p className="font-semibold text-slate-900">Premium domains could not be loaded.</p>
              <p className="mt-1 text-sm text-slate-600">Please try again in a moment.</p>
              <Button variant="outline" className="mt-6" disabled={isFetching} onClick={() => void refetch()}>
                {isFetching ? 'Retrying...' : 'Retry'}
              </Button>
            </div>
          ) : available.length === 0 ? (
            <EmptyState title="No premium domains available at the moment" text="New names are added regularly.">
              <Link to="/" className={buttonStyles({ variant: 'outline', className: 'mt-6' })}>
                Search all domains
              </Link>
            </EmptyState>
          ) : shown.length === 0 ? (
            <EmptyState
              title="No premium domains match your search"
              text="Try another word or category, or clear the filters to see every name."
            >
              <Button variant="outline" className="mt-6" onClick={clearFilters}>
                <X className="h-4 w-4" aria-hidden />
                Clear filters
              </Button>
            </EmptyState>
          ) : (
            <>
              <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-slate-600" aria-live="polite">
                  {shown.length === available.length
                    ? `${available.length} premium ${available.length === 1 ? 'domain' : 'domains'}`
                    : `${shown.length} of ${available.length} premium domains`}
                </p>
                {filtering && (
                  <Button variant="ghost" size="sm" onClick={clearFilters}>
                    <X className="h-4 w-4" aria-hidden />
                    Clear filters
                  </Button>
                )}
              </div>
              <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                {shown.map((domain) => (
                  <li key={domain.id} className="flex">
                    <PremiumCard domain={domain} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </div>
    </div>
  )
}

function EmptyState({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-2xl bg-white px-6 py-16 text-center shadow-sm ring-1 ring-slate-200">
      <SearchX className="h-10 w-10 text-slate-300" aria-hidden />
      <p className="mt-4 font-semibold text-slate-900">{title}</p>
      <p className="mt-1 max-w-md text-sm text-slate-600">{text}</p>
      {children}
    </div>
  )
}

function PremiumCard({ domain }: { domain: PremiumDomain }) {
  const name = fullName(domain)
  const keywords = domain.keywords ?? []
  const rest = keywords.slice(KEYWORDS_SHOWN)
  return (
    <article
      aria-label={name}
      className="flex w-full flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 transition hover:shadow-md"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="premium" className="font-semibold">
          <Crown className="h-3 w-3" aria-hidden />
          Premium
        </Badge>
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
