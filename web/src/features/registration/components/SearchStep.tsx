import { useId, useState } from 'react'
import { Search } from 'lucide-react'
import { SearchResultCard } from '@/components/domain-search/SearchResultCard'
import { useDomainSearch } from '@/components/domain-search/useDomainSearch'
import type { RegistrationTarget } from '@/components/registration/registrationContext'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Select } from '@/components/ui/form'
import { defaultExtension, useExtensions } from '@/lib/catalog'
import { checkedLabel } from '@/lib/domainCheck'

/** The dashboards' search: the landing search's rules, then the register step for an available name. */
export function SearchStep({ onChoose, onClose }: { onChoose: (target: RegistrationTarget) => void; onClose: () => void }) {
  const ids = { name: useId(), extension: useId(), error: useId() }
  const [failure, setFailure] = useState<string | null>(null)
  const { extensions } = useExtensions()
  const offered = extensions.map((extension) => extension.extension)
  const { form, fieldError, search, result, submit } = useDomainSearch({
    offered,
    defaultValues: { name: '', extension: defaultExtension },
    onFailure: setFailure,
    onStart: () => setFailure(null),
  })

  return (
    <>
      <DialogHeader>
        <DialogTitle>Register a domain</DialogTitle>
        <DialogDescription>Search for a name, then choose how long to register it for.</DialogDescription>
      </DialogHeader>
      <form
        noValidate
        role="search"
        aria-label="Find a domain to register"
        onSubmit={submit}
        className="mt-5 space-y-3"
      >
        <div className="flex flex-col gap-2 sm:flex-row">
          <div className="flex-1">
            <label htmlFor={ids.name} className="sr-only">
              Domain name
            </label>
            <input
              id={ids.name}
              placeholder="Find your domain name"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? ids.error : undefined}
              className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
              {...form.register('name')}
            />
          </div>
          <div className="flex gap-2">
            <label htmlFor={ids.extension} className="sr-only">
              Extension
            </label>
            <Select id={ids.extension} className="min-w-0 flex-1 sm:w-32" {...form.register('extension')}>
              {offered.map((extension) => (
                <option key={extension} value={extension}>
                  {extension}
                </option>
              ))}
            </Select>
            <Button type="submit" disabled={search.isPending}>
              <Search className="h-4 w-4" aria-hidden />
              {search.isPending ? 'Searching...' : 'Search'}
            </Button>
          </div>
        </div>
        {fieldError && (
          <p id={ids.error} role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {fieldError}
          </p>
        )}
        {failure && (
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
            {failure}
          </p>
        )}
      </form>

      <div aria-live="polite">
        {result && (
          <SearchResultCard
            result={result}
            size="md"
            action={
              result.available ? (
                <Button
                  onClick={() =>
                    onChoose({
                      name: checkedLabel(result),
                      extension: result.extension,
                      isPremium: result.isPremium,
                      price: result.price,
                    })
                  }
                >
                  Continue
                </Button>
              ) : (
                <Button variant="secondary" disabled>
                  Not Available
                </Button>
              )
            }
          />
        )}
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
      </DialogFooter>
    </>
  )
}
