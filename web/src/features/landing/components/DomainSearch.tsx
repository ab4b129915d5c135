import { useEffect, useRef, useState } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { CheckCircle2, Crown, Search, Tag, XCircle } from 'lucide-react'
import { RegisterNowButton } from '@/components/RegisterNowButton'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/toast/toastStore'
import { ApiError } from '@/lib/api'
import { defaultExtension, useExtensions } from '@/lib/catalog'
import { checkDomain, checkedLabel, checkedName, domainSearchSchema, type DomainCheck } from '@/lib/domainCheck'
import { formatUsd } from '@/lib/format'

type SearchValues = { name: string; extension: string }

/** A search to run as the page opens (the landing page's ?name=&extension=, after sign-up or adding funds). */
export interface InitialSearch {
  name?: string
  extension?: string
}

export function DomainSearch({ initial }: { initial?: InitialSearch }) {
  const [result, setResult] = useState<DomainCheck | null>(null)
  const { extensions, fromServer } = useExtensions()
  const offered = extensions.map((extension) => extension.extension)

  // The offered extensions arrive from the server after the form exists, so
  // the resolver reads the current list rather than the one of the first render.
  const offeredRef = useRef(offered)
  offeredRef.current = offered
  const resolver: Resolver<SearchValues> = (values, context, options) =>
    zodResolver(domainSearchSchema(offeredRef.current))(values, context, options)

  const form = useForm<SearchValues>({
    resolver,
    defaultValues: { name: initial?.name ?? '', extension: initial?.extension || defaultExtension },
  })
  const nameError = form.formState.errors.name?.message
  const extensionError = form.formState.errors.extension?.message

  // Keep the choice on an offered extension: .inf.nz when the server offers it.
  const offeredKey = offered.join(' ')
  useEffect(() => {
    const list = offeredKey.split(' ')
    const current = form.getValues('extension')
    // An extension asked for in the address may be one the server adds to the fixed three: wait for its list.
    if (!fromServer && current === initial?.extension) return
    if (!list.includes(current)) {
      form.setValue('extension', list.includes(defaultExtension) ? defaultExtension : list[0])
    }
  }, [offeredKey, form, fromServer, initial?.extension])

  const search = useMutation({
    mutationFn: checkDomain,
    onMutate: () => setResult(null),
    onSuccess: (envelope) => {
      if (envelope?.success && envelope.data) {
        setResult(envelope.data)
      } else {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: (envelope && !envelope.success && envelope.error) || 'Failed to check domain availability',
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

  // Coming back to a search (?name=shop&extension=.biz.ee) runs it once, with
  // the usual checks, so the name can be registered from its result card.
  const runSearch = search.mutate
  const initialName = initial?.name
  const initialReady = fromServer || offered.includes(initial?.extension || defaultExtension)
  const searched = useRef(false)
  useEffect(() => {
    if (searched.current || !initialName || !initialReady) return
    searched.current = true
    void form.handleSubmit((values) => runSearch(values))()
  }, [initialName, initialReady, form, runSearch])

  const fieldError = nameError ?? extensionError
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
            autoCapitalize="none"
            spellCheck={false}
            enterKeyHint="search"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={fieldError ? 'domain-search-error' : undefined}
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
            aria-invalid={extensionError ? true : undefined}
            className="h-12 min-w-0 flex-1 rounded-xl border-0 bg-slate-100 px-3 text-base font-medium text-slate-800 focus:outline-none focus:ring-2 focus:ring-brand-500 sm:w-36 sm:flex-none"
            {...form.register('extension')}
          >
            {offered.map((extension) => (
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
      {fieldError && (
        <p id="domain-search-error" role="alert" className="mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {fieldError}
        </p>
      )}
      <div aria-live="polite">{result && <SearchResult result={result} />}</div>
    </div>
  )
}

function statusText(result: DomainCheck) {
  if (result.available) return 'Available to register'
  switch (result.reason) {
    case 'registered':
      return 'Already registered'
    case 'reserved':
    case 'premium_reserved':
      return 'Reserved'
    default:
      return 'Not available to register'
  }
}

function SearchResult({ result }: { result: DomainCheck }) {
  const fullName = checkedName(result)
  return (
    <section
      aria-label="Search result"
      className="mt-4 flex flex-col gap-4 rounded-2xl bg-white p-5 text-left shadow-lg ring-1 ring-slate-900/5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex min-w-0 items-start gap-3">
        {result.available ? (
          <CheckCircle2 className="mt-1 h-6 w-6 shrink-0 text-emerald-500" aria-hidden />
        ) : (
          <XCircle className="mt-1 h-6 w-6 shrink-0 text-slate-400" aria-hidden />
        )}
        <div className="min-w-0">
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
          <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-500">
            <span>{statusText(result)}</span>
            {result.available && result.promotion && (
              <Badge tone="success">
                <Tag className="h-3 w-3" aria-hidden />
                {result.promotion}
              </Badge>
            )}
          </p>
          {result.available && typeof result.renewalPrice === 'number' && result.renewalPrice !== result.price && (
            <p className="mt-0.5 text-xs text-slate-500">Renews at {formatUsd(result.renewalPrice)} per year</p>
          )}
        </div>
      </div>
      {result.available ? (
        <RegisterNowButton
          target={{
            name: checkedLabel(result),
            extension: result.extension,
            isPremium: result.isPremium,
            price: result.price,
          }}
          size="lg"
        />
      ) : (
        <Button size="lg" variant="secondary" disabled>
          Not Available
        </Button>
      )}
    </section>
  )
}
