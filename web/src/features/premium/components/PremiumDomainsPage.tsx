import { useDeferredValue, useEffect, useMemo, useRef, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Crown, SearchX, Sparkles, X } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { PremiumCategoryOptions } from '@/components/PremiumCategoryOptions'
import { Field, SearchInput, Select, useLiveForm } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import {
  currentPriceOf,
  premiumDomainsQueryOptions,
  usePremiumCategories,
  type PremiumCategory,
  type PremiumDomain,
  type PremiumSort,
} from '@/lib/catalog'
import { premiumDiscountLabel, useRegistrarTiers } from '@/lib/registrarTiers'
import { rulesQueryOptions } from '@/lib/rules'
import { currentUserQueryOptions } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { PremiumCard } from './PremiumCard'

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

/** The filter form's fields; empty category and sort mean all and featured first. */
type FilterValues = { q: string; category: string; sort: string }

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
  const premium = useQuery(premiumDomainsQueryOptions())
  const { data, isError, refetch, isFetching } = premium
  // A category in the address is checked against the server's list, so the
  // list waits for that list too: showing every name first and then the
  // filtered few would flash the wrong list (and a reader could act on it).
  const rulesPending = useQuery(rulesQueryOptions()).isPending
  const isPending = premium.isPending || (!!filters.category && rulesPending)
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })

  // The search box keeps its own text so typing stays immediate; the address
  // follows a moment later. `pushed` remembers what we put there, so only a
  // change from elsewhere (Back, a link) overwrites the box.
  // A category the server does not list (an old or mistyped link) is ignored.
  const categories = usePremiumCategories()
  const category = filters.category && categories.includes(filters.category) ? filters.category : undefined
  const form = useLiveForm<FilterValues>({
    values: { category: category ?? '', sort: filters.sort ?? '' },
    defaults: { q: filters.q ?? '' },
    onChange: (values, name) => {
      // Category and sort apply at once; the search text reaches the address a moment later (below).
      if (name === 'q') return
      onFiltersChange({
        ...filters,
        category: (values.category || undefined) as PremiumCategory | undefined,
        sort: (values.sort || undefined) as PremiumSort | undefined,
      })
    },
  })
  const text = form.watch('q')
  const setText = (next: string) => form.setValue('q', next)
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
        available.filter((domain) => (!category || domain.category === category) && matches(domain, needle)),
        filters.sort,
      ),
    [available, category, filters.sort, needle],
  )

  const filtering = Boolean(text.trim() || category)
  const clearFilters = () => {
    pushed.current = ''
    setText('')
    onFiltersChange({ sort: filters.sort })
  }

  const { tierOf } = useRegistrarTiers()
  const registrarTier = user?.userType === 'registrar' ? tierOf(user.tier) : undefined

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
          <Field label="Search" className="col-span-2 md:col-span-1">
            {(ids) => <SearchInput {...ids} placeholder="Name, keyword or description" {...form.register('q')} />}
          </Field>
          <Field label="Category">
            {(ids) => (
              <Select {...ids} {...form.register('category')}>
                <option value="">All</option>
                <PremiumCategoryOptions />
              </Select>
            )}
          </Field>
          <Field label="Sort by">
            {(ids) => (
              <Select {...ids} {...form.register('sort')}>
                {sortOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
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
