import { useId, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { AlertCircle, ExternalLink, Globe, Settings } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { DataTable, nextTableSort, type Column } from '@/components/ui/DataTable'
import { Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import type { Domain } from '@/lib/domains'
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
  const columns: Column<Domain, DomainSortKey>[] = [
    { header: 'Domain', sortKey: 'domain', cell: fullNameOf, className: 'font-medium text-slate-900' },
    {
      header: 'Status',
      sortKey: 'status',
      cell: (domain) => <DomainStatusBadge lifecycle={lifecycleOf(domain, now)} layout="stacked" />,
    },
    { header: 'Type', cell: (domain) => <DomainType domain={domain} /> },
    { header: 'Registered', cell: (domain) => formatDate(domain.registeredAt), className: 'text-slate-600' },
    { header: 'Expires', sortKey: 'expires', cell: (domain) => formatDate(domain.expiresAt), className: 'text-slate-600' },
    {
      header: 'Auto-Renew',
      cell: (domain) =>
        domain.autoRenew ? <Badge tone="success">Enabled</Badge> : <Badge tone="muted">Disabled</Badge>,
    },
    {
      header: 'Actions',
      align: 'right',
      cell: (domain) => <DomainActions id={domain.id} fullName={fullNameOf(domain)} />,
    },
  ]

  return (
    <>
      {/* Phones get a stacked list (sorted from a menu); the seven-column table needs room. */}
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
      <DataTable
        label="Domains"
        rows={sorted}
        rowKey={(domain) => domain.id}
        columns={columns}
        sort={sort}
        onSort={(key) => setSort((current) => nextTableSort(current, key))}
        minWidth="min-w-[820px]"
        stacked={(domain) => <DomainCard domain={domain} now={now} />}
      />
    </>
  )
}

const fullNameOf = (domain: Domain) => `${domain.name}${domain.extension}`

function DomainType({ domain }: { domain: Domain }) {
  return domain.isPremium ? <Badge tone="premium">Premium</Badge> : <Badge>Standard</Badge>
}

/** A domain on a phone: name, status and badges, then its dates. */
function DomainCard({ domain, now }: { domain: Domain; now: number }) {
  const fullName = fullNameOf(domain)
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{fullName}</p>
          <DomainStatusBadge lifecycle={lifecycleOf(domain, now)} className="mt-1.5" />
          <div className="mt-1.5 flex flex-wrap gap-1.5">
            <DomainType domain={domain} />
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
    </>
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
