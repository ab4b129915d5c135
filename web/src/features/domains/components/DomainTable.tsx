import { useId, useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ArrowDown, ArrowUp, ArrowUpDown, ExternalLink, Globe, Settings } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { formatDate } from '@/lib/format'
import { domainsQueryOptions } from '../api/domains'
import { lifecycleOf, sortDomains, type DomainSortKey, type SortDirection } from '../lifecycle'
import { DomainStatusBadge } from './DomainStatusBadge'

type Sort = { key: DomainSortKey; direction: SortDirection }

/** Phones choose the order from a list rather than from column headers. */
const phoneOrders: Record<string, Sort & { label: string }> = {
  attention: { key: 'status', direction: 'asc', label: 'Needs attention first' },
  expires: { key: 'expires', direction: 'asc', label: 'Expiry date' },
  domain: { key: 'domain', direction: 'asc', label: 'Name' },
}

/** The domain list of both dashboards, with its loading, error and empty states. */
export function DomainTable() {
  const { data: domains, isPending, isError } = useQuery(domainsQueryOptions())
  // Expired and expiring domains first, so what needs doing is seen at once.
  const [sort, setSort] = useState<Sort>({ key: 'status', direction: 'asc' })
  const sortId = useId()

  if (isPending) {
    return (
      <div className="flex items-center justify-center gap-3 py-16 text-slate-600">
        <Spinner />
        <span>Loading your domains...</span>
      </div>
    )
  }

  if (isError) {
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
        <p className="text-slate-700">Failed to load domains. Please try again.</p>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Retry
        </Button>
      </div>
    )
  }

  if (domains.length === 0) {
    return (
      <div className="flex flex-col items-center py-16 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
          <Globe className="h-6 w-6" aria-hidden />
        </span>
        <h3 className="mt-4 text-lg font-semibold text-slate-900">No domains found</h3>
        <p className="mt-1 text-sm text-slate-600">You haven't registered any domains yet.</p>
        <Link to="/" className={buttonStyles({ className: 'mt-6' })}>
          Register Your First Domain
        </Link>
      </div>
    )
  }

  const now = Date.now()
  const sorted = sortDomains(domains, sort.key, sort.direction, now)
  const phoneOrder =
    Object.entries(phoneOrders).find(
      ([, order]) => order.key === sort.key && order.direction === sort.direction,
    )?.[0] ?? 'custom'
  const sortBy = (key: DomainSortKey) =>
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: 'asc' },
    )
  const header = (key: DomainSortKey, label: string, className: string) => (
    <SortableHeader label={label} sortKey={key} sort={sort} onSort={sortBy} className={className} />
  )

  return (
    <>
      {/* Phones get a stacked list; the seven-column table needs room. */}
      <div className="-mx-6 flex items-center justify-end gap-2 border-t border-slate-200 px-6 py-2 sm:hidden">
        <label htmlFor={sortId} className="whitespace-nowrap text-xs font-medium text-slate-500">
          Sort by
        </label>
        {/* The shared Select fills its container: the wrapper sets the width. */}
        <div className="w-48">
          <Select
            id={sortId}
            className="h-8 text-xs"
            value={phoneOrder}
            onChange={(event) => {
              const order = phoneOrders[event.target.value]
              if (order) setSort({ key: order.key, direction: order.direction })
            }}
          >
            {phoneOrder === 'custom' && <option value="custom">Custom</option>}
            {Object.entries(phoneOrders).map(([value, order]) => (
              <option key={value} value={value}>
                {order.label}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <ul aria-label="Domains" className="-mx-6 divide-y divide-slate-100 border-t border-slate-200 sm:hidden">
        {sorted.map((domain) => {
          const fullName = `${domain.name}${domain.extension}`
          return (
            <li key={domain.id} className="px-6 py-4">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{fullName}</p>
                  <DomainStatusBadge lifecycle={lifecycleOf(domain, now)} className="mt-1.5" />
                  <div className="mt-1.5 flex flex-wrap gap-1.5">
                    {domain.isPremium ? <Badge tone="premium">Premium</Badge> : <Badge>Standard</Badge>}
                    {domain.autoRenew ? (
                      <Badge tone="success">Auto-Renew Enabled</Badge>
                    ) : (
                      <Badge tone="muted">Auto-Renew Disabled</Badge>
                    )}
                  </div>
                </div>
                <DomainActions id={domain.id} fullName={fullName} />
              </div>
              <dl className="mt-3 grid grid-cols-2 gap-2 text-xs">
                <div>
                  <dt className="text-slate-500">Registered</dt>
                  <dd className="text-slate-800">{formatDate(domain.registeredAt)}</dd>
                </div>
                <div>
                  <dt className="text-slate-500">Expires</dt>
                  <dd className="text-slate-800">{formatDate(domain.expiresAt)}</dd>
                </div>
              </dl>
            </li>
          )
        })}
      </ul>
      <div className="-mx-6 hidden overflow-x-auto sm:block">
        <table className="w-full min-w-[820px] text-left text-sm">
          <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              {header('domain', 'Domain', 'px-6')}
              {header('status', 'Status', 'px-3')}
              <th scope="col" className="px-3 py-3">
                Type
              </th>
              <th scope="col" className="px-3 py-3">
                Registered
              </th>
              {header('expires', 'Expires', 'px-3')}
              <th scope="col" className="px-3 py-3">
                Auto-Renew
              </th>
              <th scope="col" className="px-6 py-3 text-right">
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {sorted.map((domain) => {
              const fullName = `${domain.name}${domain.extension}`
              return (
                <tr key={domain.id} className="hover:bg-slate-50/60">
                  <td className="px-6 py-3 font-medium text-slate-900">{fullName}</td>
                  <td className="px-3 py-3">
                    <DomainStatusBadge lifecycle={lifecycleOf(domain, now)} layout="stacked" />
                  </td>
                  <td className="px-3 py-3">
                    {domain.isPremium ? <Badge tone="premium">Premium</Badge> : <Badge>Standard</Badge>}
                  </td>
                  <td className="px-3 py-3 text-slate-600">{formatDate(domain.registeredAt)}</td>
                  <td className="px-3 py-3 text-slate-600">{formatDate(domain.expiresAt)}</td>
                  <td className="px-3 py-3">
                    {domain.autoRenew ? <Badge tone="success">Enabled</Badge> : <Badge tone="muted">Disabled</Badge>}
                  </td>
                  <td className="px-6 py-3">
                    <DomainActions id={domain.id} fullName={fullName} />
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </>
  )
}

/** A column header that sorts the list by its column; a second click reverses the order. */
function SortableHeader({
  label,
  sortKey,
  sort,
  onSort,
  className,
}: {
  label: ReactNode
  sortKey: DomainSortKey
  sort: Sort
  onSort: (key: DomainSortKey) => void
  className: string
}) {
  const active = sort.key === sortKey
  const Arrow = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown
  return (
    <th
      scope="col"
      className={`${className} py-3`}
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase tracking-wide hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {label}
        <Arrow className={`h-3 w-3 ${active ? 'text-slate-700' : 'text-slate-400'}`} aria-hidden />
      </button>
    </th>
  )
}

/** Manage opens the domain's page; visit opens the site itself over http in a new tab. */
function DomainActions({ id, fullName }: { id: number; fullName: string }) {
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <Link
        to="/domain-management/$id"
        params={{ id: String(id) }}
        aria-label={`Manage ${fullName}`}
        title="Manage"
        className={buttonStyles({ variant: 'ghost', size: 'icon' })}
      >
        <Settings className="h-4 w-4" aria-hidden />
      </Link>
      <a
        href={`http://${fullName}`}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={`Visit ${fullName}`}
        title="Visit"
        className={buttonStyles({ variant: 'ghost', size: 'icon' })}
      >
        <ExternalLink className="h-4 w-4" aria-hidden />
      </a>
    </div>
  )
}
