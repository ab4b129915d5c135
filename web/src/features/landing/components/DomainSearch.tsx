import { useEffect, useRef } from 'react'
import { Search } from 'lucide-react'
import { SearchResultCard } from '@/components/domain-search/SearchResultCard'
import { useDomainSearch } from '@/components/domain-search/useDomainSearch'
import { RegisterNowButton } from '@/components/RegisterNowButton'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/toast/toastStore'
import { defaultExtension, useExtensions } from '@/lib/catalog'
import { checkedLabel, type DomainCheck } from '@/lib/domainCheck'
import { useRules } from '@/lib/rules'

/** A search to run as the page opens (the landing page's ?name=&extension=, after sign-up or adding funds). */
export interface InitialSearch {
  name?: string
  extension?: string
}

export function DomainSearch({ initial }: { initial?: InitialSearch }) {
  const { extensions, fromServer } = useExtensions()
  const offered = extensions.map((extension) => extension.extension)
  const { form, fieldError, search, result, submit } = useDomainSearch({
    offered,
    defaultValues: { name: initial?.name ?? '', extension: initial?.extension || defaultExtension },
    onFailure: (message) => toast({ variant: 'destructive', title: 'Error', description: message }),
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

  // Coming back to a search (?name=shop&extension=.biz.ee) runs it once, with
  // the usual checks, so the name can be registered from its result card.
  const runSearch = search.mutate
  const initialName = initial?.name
  // …once the server's label rules are there, so a bad name is refused here like a typed one.
  const rulesLoaded = useRules() !== undefined
  const initialReady = rulesLoaded && (fromServer || offered.includes(initial?.extension || defaultExtension))
  const searched = useRef(false)
  useEffect(() => {
    if (searched.current || !initialName || !initialReady) return
    searched.current = true
    void form.handleSubmit((values) => runSearch(values))()
  }, [initialName, initialReady, form, runSearch])

  return (
    <div>
      <form
        noValidate
        role="search"
        aria-label="Domain search"
        onSubmit={submit}
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

/** The landing page's result card: an available name goes on to Register Now. */
function SearchResult({ result }: { result: DomainCheck }) {
  return (
    <SearchResultCard
      result={result}
      action={
        result.available ? (
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
        )
      }
    />
  )
}
