import { useEffect, useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, Wallet as WalletIcon } from 'lucide-react'
import type { RegistrationTarget } from '@/components/registration/registrationContext'
import { PremiumBadge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Select } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { premiumDomainsQueryOptions } from '@/lib/catalog'
import { cx } from '@/lib/classNames'
import { domainQueryOptions } from '@/lib/domains'
import { formatDate, formatUsd } from '@/lib/format'
import { randomUuid } from '@/lib/uuid'
import { walletQueryOptions } from '@/lib/wallet'
import { RegistrationNotice, SummaryRow, type Problem } from './RegistrationNotice'
import { invalidateAfterRegistration, registerDomain, toCents, topUpDollars } from '../api/registration'
import { DomainName } from '@/components/DomainName'

/** Registration periods offered, in years (the server accepts 1 to 10). */
const YEAR_CHOICES = Array.from({ length: 10 }, (_, index) => index + 1)

/** The register step's fields. */
type RegisterValues = { years: number; autoRenew: boolean }

/**
 * The register step: the name and its yearly price, the period and
 * auto-renew, the total against the wallet balance, then Register (or Add
 * funds when the balance is short).
 */
export function RegisterStep({
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
  const form = useForm<RegisterValues>({ defaultValues: { years: 1, autoRenew: true } })
  const years = form.watch('years')
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
    mutationFn: ({ years, autoRenew }: RegisterValues) =>
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
    <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))}>
      <DialogHeader>
        <DialogTitle>Register domain</DialogTitle>
        <DialogDescription>Choose the registration period; the total is paid from your wallet.</DialogDescription>
      </DialogHeader>

      <div className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-inset ring-slate-200 sm:mt-5">
        <p className="flex flex-wrap items-center gap-2">
          <span className="text-xl font-bold tracking-tight text-slate-900 [overflow-wrap:anywhere]">
            <DomainName>{target.name}</DomainName>
            <span className="text-slate-500">
              <wbr />
              <DomainName>{target.extension}</DomainName>
            </span>
          </span>
          {target.isPremium && (
            <PremiumBadge className="font-semibold" />
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
            disabled={pending}
            {...form.register('years', {
              valueAsNumber: true,
              // A new period is a new question: a shortfall for the old one no longer applies.
              onChange: () => setProblem((current) => (current?.kind === 'taken' ? current : null)),
            })}
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
            disabled={pending}
            className="h-4 w-4 rounded border-slate-300 accent-brand-600"
            {...form.register('autoRenew')}
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

      <RegistrationNotice
        problem={problem}
        shortCents={short ? fundsShortCents : 0}
        remainingCents={balanceCents === undefined ? undefined : balanceCents - totalCents}
      />

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
            type="submit"
            disabled={pending || short || problem?.kind === 'taken'}
            aria-description={`Register ${fullName} for ${years} ${years === 1 ? 'year' : 'years'}`}
          >
            {pending ? 'Registering...' : 'Register'}
          </Button>
          {/* Short of funds, adding them is the next step: last here, so first on phones and rightmost on wide screens. */}
          {short && addFunds}
        </div>
      </DialogFooter>
    </form>
  )
}
