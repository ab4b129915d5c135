import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link } from '@tanstack/react-router'
import { useMutation, useQuery } from '@tanstack/react-query'
import { CheckCircle2, Crown, Search, XCircle } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { toast } from '@/components/toast/toastStore'
import { ApiError } from '@/lib/api'
import { cx } from '@/lib/classNames'
import { extensions } from '@/lib/extensions'
import { formatUsd } from '@/lib/format'
import { currentUserQueryOptions, dashboardPathFor } from '@/lib/session'
import { checkDomain, type DomainCheck } from '../api/catalog'

const searchSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Domain name is required'),
      z.maxLength(63, 'Domain name must be at most 63 characters'),
      z.regex(
        /^[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$/,
        'Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.',
      ),
    ),
  extension: z.enum(extensions),
})

type SearchValues = z.infer<typeof searchSchema>

export function DomainSearch() {
  const [result, setResult] = useState<DomainCheck | null>(null)
  const form = useForm<SearchValues>({
    resolver: zodResolver(searchSchema),
    defaultValues: { name: '', extension: '.inf.nz' },
  })
  const nameError = form.formState.errors.name?.message

  const search = useMutation({
    mutationFn: checkDomain,
    onMutate: () => setResult(null),
    onSuccess: (envelope) => {
      if (envelope?.success) {
        setResult(envelope.data)
      } else {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: envelope?.error || 'Failed to check domain availability',
        })
      }
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description:
          error instanceof ApiError
            ? error.error || 'Failed to check domain availability'
            : 'An unexpected error occurred',
      })
    },
  })

  return (
    <div>
      <form
        noValidate
        role="search"
        aria-label="Domain search"
        onSubmit={form.handleSubmit((values) => search.mutate(values))}
        className="flex flex-col gap-2 rounded-2xl bg-white p-2 shadow-xl shadow-brand-950/20 ring-1 ring-slate-900/5 sm:flex-row"
      >
        <div className="relative flex-1">
          <label htmlFor="domain-search-name" className="sr-only">
            Domain name
          </label>
          <Search
            className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-400"
            aria-hidden
          />
          <input
            id="domain-search-name"
            placeholder="Find your domain name"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'domain-search-error' : undefined}
            className="h-12 w-full rounded-xl border-0 bg-transparent pl-10 pr-3 text-base text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-brand-500"
            {...form.register('name')}
          />
        </div>
        <div className="flex gap-2">
          <label htmlFor="domain-search-extension" className="sr-only">
            Extension
          </label>
          <select
            id="domain-search-extension"
            className="h-12 flex-1 rounded-xl border-0 bg-slate-100 px-3 text-base font-medium text-slate-800 focus:outline-none focus:ring-2 focus:ring-brand-500 sm:w-36 sm:flex-none"
            {...form.register('extension')}
          >
            {extensions.map((extension) => (
              <option key={extension} value={extension}>
                {extension}
              </option>
            ))}
          </select>
          <Button type="submit" size="lg" className="h-12 rounded-xl px-6" disabled={search.isPending}>
            {search.isPending ? 'Searching...' : 'Search'}
          </Button>
        </div>
      </form>
      {nameError && (
        <p id="domain-search-error" role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {nameError}
        </p>
      )}
      <div aria-live="polite">{result && <SearchResult result={result} />}</div>
    </div>
  )
}

function SearchResult({ result }: { result: DomainCheck }) {
  const { data: user } = useQuery({ ...currentUserQueryOptions(), enabled: false })
  const fullName = result.domain.endsWith(result.extension) ? result.domain : `${result.domain}${result.extension}`
  return (
    <section
      aria-label="Search result"
      className="mt-4 flex flex-col gap-4 rounded-2xl bg-white p-5 text-left shadow-lg ring-1 ring-slate-900/5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        {result.available ? (
          <CheckCircle2 className="mt-0.5 h-6 w-6 shrink-0 text-emerald-500" aria-hidden />
        ) : (
          <XCircle className="mt-0.5 h-6 w-6 shrink-0 text-slate-400" aria-hidden />
        )}
        <div>
          <p className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
            <span className="break-all">{fullName}</span>
            {result.isPremium && (
              <Badge tone="premium">
                <Crown className="h-3 w-3" aria-hidden />
                Premium
              </Badge>
            )}
          </p>
          <p className="text-sm text-slate-600">
            <span className="font-semibold text-slate-900">{formatUsd(result.price)}</span> per year
          </p>
        </div>
      </div>
      {result.available ? (
        // Checkout arrives with domain registration; until then a visitor
        // starts by creating an account and a customer goes to their dashboard.
        <Link to={user ? dashboardPathFor(user) : '/register'} className={buttonStyles({ size: 'lg' })}>
          Register Now
        </Link>
      ) : (
        <Button size="lg" variant="secondary" disabled className={cx('cursor-not-allowed')}>
          Not Available
        </Button>
      )}
    </section>
  )
}
