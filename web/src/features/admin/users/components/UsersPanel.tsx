import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, ChevronLeft, ChevronRight, LoaderCircle, UserX } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { SearchInput, Select, useLiveForm } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { currentUserQueryOptions } from '@/lib/session'
import {
  adminUsersQueryOptions,
  AUDIT_URL,
  TIERS,
  updateAdminUser,
  USERS_PAGE_SIZE,
  USERS_URL,
  type AdminUser,
  type Tier,
  type UserType,
} from '../api'
import { AuditLog } from './AuditLog'
import { TierApplications } from './TierApplications'
import { TwoFactorPolicyCard } from './TwoFactorPolicyCard'

const typeLabels: Record<UserType, string> = { user: 'User', registrar: 'Registrar', admin: 'Admin' }
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })

/**
 * The Users tab: registrars' pending tier applications, accounts with their
 * tier and state, the two-factor policy, and the audit log of admins' changes.
 */
export function UsersPanel() {
  return (
    <div className="space-y-6">
      <TierApplications />
      <AccountsCard />
      <TwoFactorPolicyCard />
      <AuditLog />
    </div>
  )
}

function AccountsCard() {
  const filters = useLiveForm<{ search: string; type: UserType | '' }>({
    values: {},
    defaults: { search: '', type: '' },
    // A new account type starts at the first page; the search waits for a pause (below).
    onChange: (_, name) => name === 'type' && setPage(1),
  })
  const searchText = filters.watch('search')
  const type = filters.watch('type')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  // Ask once the admin pauses typing, not on every key.
  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText)
      setPage(1)
    }, 250)
    return () => clearTimeout(t)
  }, [searchText])
  const query = useQuery(adminUsersQueryOptions({ search, type, page }))
  const me = useQuery(currentUserQueryOptions()).data
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / USERS_PAGE_SIZE)) : 1

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 lg:flex-row lg:items-start lg:justify-between">
        <div className="space-y-1">
          <CardTitle>Users</CardTitle>
          <CardDescription>Accounts, registrar tiers, and who may log in.</CardDescription>
        </div>
        <form role="search" onSubmit={(e) => e.preventDefault()} className="flex flex-col gap-2 sm:flex-row">
          <SearchInput
            aria-label="Search accounts"
            placeholder="Search name or email"
            className="sm:w-72"
            {...filters.register('search')}
          />
          <Select aria-label="Account type" className="sm:w-40" {...filters.register('type')}>
            <option value="">All types</option>
            <option value="user">Users</option>
            <option value="registrar">Registrars</option>
            <option value="admin">Admins</option>
          </Select>
        </form>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="flex items-center justify-center gap-3 py-12 text-slate-500">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading accounts...
          </div>
        ) : query.isError ? (
          <div role="alert" className="flex flex-col items-center gap-2 py-12 text-center">
            <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
            <p className="font-medium text-slate-900">Could not load accounts</p>
            <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
          </div>
        ) : (query.data.users ?? []).length === 0 ? (
          <div className="flex flex-col items-center gap-2 py-12 text-center">
            <UserX className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="font-medium text-slate-900">No accounts match</p>
          </div>
        ) : (
          <>
            <div
              aria-hidden
              className="hidden border-b border-slate-200 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-500 md:grid md:grid-cols-[minmax(0,1fr)_6rem_9rem_5rem_7rem_7rem_6.5rem] md:gap-4"
            >
              <span>Account</span>
              <span>Type</span>
              <span>Tier</span>
              <span className="text-right">Domains</span>
              <span className="text-right">Wallet</span>
              <span>Created</span>
              <span className="text-right">Access</span>
            </div>
            <ul aria-label="Accounts" className="divide-y divide-slate-100">
              {(query.data.users ?? []).map((u) => (
                <AccountRow key={u.id} account={u} isMe={me?.id === u.id} />
              ))}
            </ul>
            <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
              <span>
                {query.data.total} {query.data.total === 1 ? 'account' : 'accounts'} · page {page} of {pages}
              </span>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
                </Button>
                <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next <ChevronRight className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}

function AccountRow({ account: u, isMe }: { account: AdminUser; isMe: boolean }) {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: (change: { tier?: Tier; disabled?: boolean }) => updateAdminUser(u.id, change),
    onSuccess: (updated, change) => {
      if (change.tier) {
        toast({ title: 'Tier changed', description: `${updated.username} is now on the ${updated.tier} tier.` })
      } else {
        toast({
          title: updated.disabled ? 'Account disabled' : 'Account enabled',
          description: updated.disabled
            ? `${updated.username} can no longer log in or use the API.`
            : `${updated.username} can log in again.`,
        })
      }
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error',
        description: serverMessage(error) || 'Failed to update account',
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [USERS_URL] })
      void queryClient.invalidateQueries({ queryKey: [AUDIT_URL] })
    },
  })
  const label = 'text-xs font-medium text-slate-500 md:hidden'
  return (
    <li
      aria-label={u.username}
      className="grid grid-cols-2 gap-x-4 gap-y-2 py-4 text-sm md:grid-cols-[minmax(0,1fr)_6rem_9rem_5rem_7rem_7rem_6.5rem] md:items-center md:gap-4 md:py-3"
    >
      <div className="col-span-2 min-w-0 md:col-span-1">
        <p className="flex items-center gap-2 truncate font-medium text-slate-900">
          {u.username}
          {isMe && <Badge tone="muted">you</Badge>}
          {u.disabled && <Badge className="!bg-red-50 !text-red-700 !ring-red-200">Disabled</Badge>}
        </p>
        <p className="truncate text-slate-500">{u.email}</p>
      </div>
      <div>
        <p className={label}>Type</p>
        <Badge tone={u.userType === 'registrar' ? 'brand' : u.userType === 'admin' ? 'premium' : 'neutral'}>
          {typeLabels[u.userType]}
        </Badge>
      </div>
      <div>
        <p className={label}>Tier</p>
        {u.userType === 'registrar' ? (
          <select
            aria-label={`Tier of ${u.username}`}
            value={u.tier ?? 'basic'}
            disabled={mutation.isPending}
            onChange={(e) => mutation.mutate({ tier: e.target.value as Tier })}
            className="h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm capitalize"
          >
            {TIERS.map((t) => (
              <option key={t} value={t}>
                {t[0].toUpperCase() + t.slice(1)}
              </option>
            ))}
          </select>
        ) : (
          <span className="text-slate-500">—</span>
        )}
      </div>
      <div className="md:text-right">
        <p className={label}>Domains</p>
        <span className="tabular-nums">{u.domainCount}</span>
      </div>
      <div className="md:text-right">
        <p className={label}>Wallet</p>
        <span className="tabular-nums">{usd.format(u.walletBalance)}</span>
      </div>
      <div>
        <p className={label}>Created</p>
        <time dateTime={u.createdAt} className="whitespace-nowrap text-slate-600">
          {day.format(new Date(u.createdAt))}
        </time>
      </div>
      <div className="col-span-2 md:col-span-1 md:text-right">
        {u.disabled ? (
          <Button
            size="sm"
            variant="outline"
            className="w-full md:w-auto"
            disabled={mutation.isPending}
            onClick={() => mutation.mutate({ disabled: false })}
          >
            Enable
          </Button>
        ) : (
          <Button
            size="sm"
            variant="outline"
            className="w-full !border-red-200 !text-red-700 hover:!bg-red-50 md:w-auto"
            disabled={mutation.isPending || isMe}
            title={isMe ? 'You cannot disable your own account' : undefined}
            onClick={() => mutation.mutate({ disabled: true })}
          >
            Disable
          </Button>
        )}
      </div>
    </li>
  )
}
