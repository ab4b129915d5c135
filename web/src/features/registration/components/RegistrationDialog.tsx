import { useEffect, useId, useRef, useState } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, ArrowLeft, CheckCircle2, Crown, Search, Wallet as WalletIcon, XCircle } from 'lucide-react'
import type { RegistrationTarget } from '@/components/registration/registrationContext'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Select } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { defaultExtension, premiumDomainsQueryOptions, useExtensions } from '@/lib/catalog'
import { checkDomain, checkedLabel, checkedName, domainSearchSchema, type DomainCheck } from '@/lib/domainCheck'
import { cx } from '@/lib/classNames'
import { domainQueryOptions } from '@/lib/domains'
import { formatDate, formatUsd } from '@/lib/format'
import { landingSearchPath } from '@/lib/redirect'
import { randomUuid } from '@/lib/uuid'
import { walletQueryOptions } from '@/lib/wallet'
import { invalidateAfterRegistration, registerDomain, toCents, topUpDollars } from '../api/registration'
import type { RegistrationRequest } from './RegistrationHost'

/** Registration periods offered, in years (the server accepts 1 to 10). */
const YEAR_CHOICES = Array.from({ length: 10 }, (_, index) => index + 1)

/**
 * The registration dialog: the register step for one name, or (from the
 * dashboards) a search step first.
 */
export default function RegistrationDialog({
  request,
  onClose,
}: {
  request: RegistrationRequest
  onClose: () => void
}) {
  const [chosen, setChosen] = useState<{ target: RegistrationTarget; returnTo?: string } | null>(
    request.mode === 'name' ? { target: request.target, returnTo: request.returnTo } : null,
  )
  // While a registration is on its way the dialog stays: closing it would hide the outcome.
  const [busy, setBusy] = useState(false)

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent hideClose={busy}>
        {chosen ? (
          <RegisterStep
            key={`${chosen.target.name}${chosen.target.extension}`}
            target={chosen.target}
            returnTo={chosen.returnTo ?? landingSearchPath(chosen.target.name, chosen.target.extension)}
            onBack={request.mode === 'search' ? () => setChosen(null) : undefined}
            onBusyChange={setBusy}
            onClose={onClose}
          />
        ) : (
          <SearchStep onChoose={(target) => setChosen({ target })} onClose={onClose} />
        )}
      </DialogContent>
    </Dialog>
  )
}

type Problem = { kind: 'funds'; message: string; shortCents?: number } | { kind: 'taken'; message: string }

function RegisterStep({
  target,
  returnTo,
  onBack,
  onBusyChange,
  onClose,
}: {
  target: RegistrationTarget
  returnTo: string
  onBack?: () => void
  onBusyChange: (busy: boolean) => void
  onClose: () => void
}) {
  const ids = { years: useId(), autoRenew: useId() }
  // One key per dialog: every retry of this registration sends the same one,
  // so the server registers and charges once however often it is asked.
  const [idempotencyKey] = useState(randomUuid)
  const [years, setYears] = useState(1)
  const [autoRenew, setAutoRenew] = useState(true)
  const [problem, setProblem] = useState<Problem | null>(null)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  // The balance may have changed elsewhere (another tab, a renewal): read it afresh.
  const wallet = useQuery({ ...walletQueryOptions(), refetchOnMount: 'always' })
  const fullName = `${target.name}${target.extension}`

  const priceCents = toCents(target.price)
  const totalCents = priceCents * years
  const balanceCents = wallet.data ? toCents(wallet.data.balance) : undefined
  const shortCents = balanceCents === undefined ? 0 : Math.max(0, totalCents - balanceCents)

  const mutation = useMutation({
    mutationFn: () =>
      registerDomain({ name: target.name, extension: target.extension, years, autoRenew }, idempotencyKey),
    onMutate: () => setProblem(null),
    onSuccess: async ({ domain }) => {
      toast({
        title: 'Domain registered',
        description: `${domain.name}${domain.extension} is yours until ${formatDate(domain.expiresAt)}.`,
      })
      queryClient.setQueryData(domainQueryOptions(domain.id).queryKey, domain)
      void invalidateAfterRegistration(queryClient)
      onClose()
      await navigate({ to: '/domain-management/$id', params: { id: String(domain.id) } })
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 402) {
        const message = error.error || 'Your wallet balance is too low for this registration.'
        setProblem({ kind: 'funds', message, shortCents: error.shortfall?.neededCents })
        void queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey })
        return
      }
      if (error instanceof ApiError && error.status === 409) {
        setProblem({ kind: 'taken', message: error.error || `${fullName} is no longer available` })
        void queryClient.invalidateQueries({ queryKey: premiumDomainsQueryOptions().queryKey })
        return
      }
      toast({
        variant: 'destructive',
        title: 'Registration failed',
        description: serverMessage(error) || 'An unexpected error occurred',
      })
    },
  })

  const pending = mutation.isPending
  useEffect(() => onBusyChange(pending), [pending, onBusyChange])

  const fundsShortCents = problem?.kind === 'funds' ? (problem.shortCents ?? (shortCents || totalCents)) : shortCents
  const short = fundsShortCents > 0 && problem?.kind !== 'taken'
  const addFunds = (
    <Link
      to="/wallet"
      search={{ tab: 'deposit', amount: topUpDollars(fundsShortCents), return: returnTo }}
      className={buttonStyles({ variant: problem?.kind === 'funds' || shortCents > 0 ? 'primary' : 'outline' })}
    >
      <WalletIcon className="h-4 w-4" aria-hidden />
      Add funds
    </Link>
  )

  return (
    <>
      <DialogHeader>
        <DialogTitle>Register domain</DialogTitle>
        <DialogDescription>Choose the registration period; the total is paid from your wallet.</DialogDescription>
      </DialogHeader>

      <div className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200 sm:mt-5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="break-all text-xl font-bold tracking-tight text-slate-900">
            {target.name}
            <span className="text-slate-500">{target.extension}</span>
          </span>
          {target.isPremium && (
            <Badge tone="premium" className="font-semibold">
              <Crown className="h-3 w-3" aria-hidden />
              Premium
            </Badge>
          )}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          <span className="font-semibold text-slate-900">{formatUsd(target.price)}</span> per year
        </p>
      </div>

      <div className="mt-4 grid gap-3 sm:mt-5 sm:grid-cols-2 sm:items-end sm:gap-4">
        <div className="space-y-1.5">
          <label htmlFor={ids.years} className="block text-sm font-medium text-slate-700">
            Registration period
          </label>
          <Select
            id={ids.years}
            value={years}
            disabled={pending}
            onChange={(event) => {
              setYears(Number(event.target.value))
              setProblem((current) => (current?.kind === 'taken' ? current : null))
            }}
          >
            {YEAR_CHOICES.map((count) => (
              <option key={count} value={count}>
                {count} {count === 1 ? 'year' : 'years'}
              </option>
            ))}
          </Select>
        </div>
        <label
          htmlFor={ids.autoRenew}
          className="flex cursor-pointer items-center gap-2.5 rounded-lg px-1 text-sm font-medium text-slate-700 sm:h-10"
        >
          <input
            id={ids.autoRenew}
            type="checkbox"
            checked={autoRenew}
            disabled={pending}
            onChange={(event) => setAutoRenew(event.target.checked)}
            className="h-4 w-4 rounded border-slate-300 accent-brand-600"
          />
          Auto-renew
        </label>
      </div>

      <dl className="mt-4 divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-inset ring-slate-200 sm:mt-5">
        <SummaryRow label="Yearly price" value={formatUsd(target.price)} />
        <SummaryRow
          label="Total"
          value={formatUsd(totalCents / 100)}
          detail={`${years} × ${formatUsd(target.price)}`}
          strong
        />
        <SummaryRow
          label="Wallet balance"
          value={wallet.isPending ? 'Loading...' : wallet.isError ? 'Unavailable' : formatUsd(wallet.data.balance)}
        />
      </dl>

      {problem?.kind === 'taken' ? (
        <div
          role="alert"
          className="mt-4 flex gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-inset ring-red-200"
        >
          <XCircle className="h-5 w-5 shrink-0 text-red-500" aria-hidden />
          <div>
            <p className="font-semibold">This name is no longer available</p>
            <p className="mt-0.5">{problem.message}</p>
          </div>
        </div>
      ) : short ? (
        <div
          role={problem ? 'alert' : 'status'}
          className="mt-4 flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          <AlertTriangle className="h-5 w-5 shrink-0 text-amber-500" aria-hidden />
          <div>
            {problem?.kind === 'funds' ? (
              <p>{problem.message}</p>
            ) : (
              <p>
                Your balance is short by <span className="font-semibold">{formatUsd(fundsShortCents / 100)}</span>. Add
                funds to your wallet to register this domain.
              </p>
            )}
          </div>
        </div>
      ) : (
        balanceCents !== undefined && (
          <p className="mt-3 text-xs text-slate-500">
            {formatUsd((balanceCents - totalCents) / 100)} will remain in your wallet.
          </p>
        )
      )}

      <DialogFooter className={cx(onBack && 'sm:justify-between')}>
        {onBack && (
          <Button variant="ghost" onClick={onBack} disabled={pending} className="sm:-ml-3">
            <ArrowLeft className="h-4 w-4" aria-hidden />
            Back to search
          </Button>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button
            onClick={() => mutation.mutate()}
            disabled={pending || short || problem?.kind === 'taken'}
            aria-description={`Register ${fullName} for ${years} ${years === 1 ? 'year' : 'years'}`}
          >
            {pending ? 'Registering...' : 'Register'}
          </Button>
          {/* Short of funds, adding them is the next step: last here, so first on phones and rightmost on wide screens. */}
          {short && addFunds}
        </div>
      </DialogFooter>
    </>
  )
}

function SummaryRow({
  label,
  value,
  detail,
  strong = false,
}: {
  label: string
  value: string
  detail?: string
  strong?: boolean
}) {
  return (
    <div className="flex items-baseline justify-between gap-4 px-4 py-2.5">
      <dt className={cx(strong ? 'font-semibold text-slate-900' : 'text-slate-600')}>
        {label}
        {detail && <span className="ml-2 text-xs font-normal text-slate-500">{detail}</span>}
      </dt>
      <dd className={cx('tabular-nums', strong ? 'text-base font-semibold text-slate-900' : 'text-slate-900')}>
        {value}
      </dd>
    </div>
  )
}

type SearchValues = { name: string; extension: string }

/** The dashboards' search: the landing search's rules, then the register step for an available name. */
function SearchStep({ onChoose, onClose }: { onChoose: (target: RegistrationTarget) => void; onClose: () => void }) {
  const ids = { name: useId(), extension: useId(), error: useId() }
  const [result, setResult] = useState<DomainCheck | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const { extensions } = useExtensions()
  const offered = extensions.map((extension) => extension.extension)
  const offeredRef = useRef(offered)
  offeredRef.current = offered
  const resolver: Resolver<SearchValues> = (values, context, options) =>
    zodResolver(domainSearchSchema(offeredRef.current))(values, context, options)
  const form = useForm<SearchValues>({ resolver, defaultValues: { name: '', extension: defaultExtension } })
  const fieldError = form.formState.errors.name?.message ?? form.formState.errors.extension?.message

  const search = useMutation({
    mutationFn: checkDomain,
    onMutate: () => {
      setResult(null)
      setFailure(null)
    },
    onSuccess: (envelope) => {
      if (envelope?.success && envelope.data) setResult(envelope.data)
      else setFailure((envelope && !envelope.success && envelope.error) || 'Failed to check domain availability')
    },
    onError: (error) =>
      setFailure(
        error instanceof ApiError
          ? error.error || 'Failed to check domain availability'
          : 'An unexpected error occurred',
      ),
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
        onSubmit={form.handleSubmit((values) => search.mutate(values))}
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
          <section
            aria-label="Search result"
            className="mt-4 flex flex-col gap-3 rounded-xl p-4 ring-1 ring-inset ring-slate-200 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="flex min-w-0 items-start gap-3">
              {result.available ? (
                <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-500" aria-hidden />
              ) : (
                <XCircle className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
              )}
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                  <span className="break-all">{checkedName(result)}</span>
                  {result.isPremium && (
                    <Badge tone="premium">
                      <Crown className="h-3 w-3" aria-hidden />
                      Premium
                    </Badge>
                  )}
                </p>
                <p className="text-sm text-slate-600">
                  <span className="font-semibold text-slate-900">{formatUsd(result.price)}</span> per year
                  {!result.available && <span className="text-slate-500"> · Not available</span>}
                </p>
              </div>
            </div>
            {result.available ? (
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
            )}
          </section>
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
