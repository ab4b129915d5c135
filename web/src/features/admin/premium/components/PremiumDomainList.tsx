import type { ReactNode } from 'react'
import { Lock, Pencil, Star, Trash2, Unlock } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { capitalise } from '@/lib/catalog'
import { cx } from '@/lib/classNames'
import { formatUsd, formatUtcDate } from '@/lib/format'
import type { AdminPremiumDomain } from '../api/premiumAdmin'
import { DomainName } from '@/components/DomainName'

export const fullName = (domain: AdminPremiumDomain) => `${domain.name}${domain.extension}`

function PriceCell({ domain }: { domain: AdminPremiumDomain }) {
  const discount = domain.discountPercentage ?? 0
  if (discount <= 0) return <span className="font-medium text-slate-900">{formatUsd(domain.price)}</span>
  const until = domain.discountValidUntil ? formatUtcDate(domain.discountValidUntil) : null
  // The server says whether the stored discount is live; an ended one is shown but not applied.
  if (domain.discountActive === false) {
    return (
      <span className="flex flex-col">
        <span className="font-medium text-slate-900">{formatUsd(domain.price)}</span>
        <span className="text-xs text-slate-500">
          <span className="whitespace-nowrap">−{discount}% ended</span>
          {until && <span className="whitespace-nowrap"> {until}</span>}
        </span>
      </span>
    )
  }
  return (
    <span className="flex flex-col">
      <span className="font-medium text-slate-900">{formatUsd(domain.currentPrice)}</span>
      <span className="text-xs text-slate-500">
        <span className="whitespace-nowrap">
          <span className="line-through">{formatUsd(domain.price)}</span> −{discount}%
        </span>
        {until && <span className="whitespace-nowrap"> until {until}</span>}
      </span>
    </span>
  )
}

function StatusBadge({ domain }: { domain: AdminPremiumDomain }) {
  return domain.isAvailable ? <Badge tone="success">Available</Badge> : <Badge tone="muted">Reserved</Badge>
}

export function RowActions({
  domain,
  busy,
  onToggleAvailable,
  onToggleFeatured,
  onEdit,
  onDelete,
}: {
  domain: AdminPremiumDomain
  busy: boolean
  onToggleAvailable: () => void
  onToggleFeatured: () => void
  onEdit: () => void
  onDelete: () => void
}) {
  const name = fullName(domain)
  const iconButton = 'h-8 w-8'
  return (
    <div className="flex items-center justify-end gap-0.5">
      <Button
        variant="ghost"
        size="icon"
        className={iconButton}
        aria-label={domain.featured ? `Unfeature ${name}` : `Feature ${name}`}
        title={domain.featured ? 'Unfeature' : 'Feature'}
        aria-pressed={domain.featured}
        disabled={busy}
        onClick={onToggleFeatured}
      >
        <Star className={cx('h-4 w-4', domain.featured ? 'fill-amber-400 text-amber-500' : 'text-slate-400')} aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className={iconButton}
        aria-label={domain.isAvailable ? `Reserve ${name}` : `Make ${name} available`}
        title={domain.isAvailable ? 'Make unavailable (Reserved)' : 'Make available'}
        disabled={busy}
        onClick={onToggleAvailable}
      >
        {domain.isAvailable ? (
          <Unlock className="h-4 w-4 text-emerald-600" aria-hidden />
        ) : (
          <Lock className="h-4 w-4 text-slate-500" aria-hidden />
        )}
      </Button>
      <Button variant="ghost" size="icon" className={iconButton} aria-label={`Edit ${name}`} title="Edit" onClick={onEdit}>
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className={cx(iconButton, 'text-red-600 hover:bg-red-50 hover:text-red-700')}
        aria-label={`Delete ${name}`}
        title="Delete"
        onClick={onDelete}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  )
}

export interface ListProps {
  domains: AdminPremiumDomain[]
  selected: Set<number>
  onToggle: (id: number) => void
  actions: (domain: AdminPremiumDomain) => ReactNode
}

function SelectBox({ domain, selected, onToggle }: { domain: AdminPremiumDomain; selected: boolean; onToggle: () => void }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${fullName(domain)}`}
      className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
      checked={selected}
      onChange={onToggle}
    />
  )
}

/** The premium names as a table, each with a select box and its actions. */
export function PremiumDomainTable({ domains, selected, onToggle, actions }: ListProps) {
  const columns: Column<AdminPremiumDomain>[] = [
    {
      header: 'Selected',
      hideHeader: true,
      cell: (domain) => (
        <SelectBox domain={domain} selected={selected.has(domain.id)} onToggle={() => onToggle(domain.id)} />
      ),
    },
    {
      header: 'Domain',
      rowHeader: true,
      cell: (domain) => (
        <>
          <span className="flex items-center gap-1.5">
            {fullName(domain)}
            {domain.featured && <Badge tone="premium">Featured</Badge>}
          </span>
          {domain.description && (
            <span className="mt-0.5 block max-w-xs truncate text-xs font-normal text-slate-500">
              {domain.description}
            </span>
          )}
        </>
      ),
    },
    { header: 'Price', cell: (domain) => <PriceCell domain={domain} /> },
    { header: 'Status', cell: (domain) => <StatusBadge domain={domain} /> },
    { header: 'Category', cell: (domain) => capitalise(domain.category), className: 'text-slate-600' },
    { header: 'Actions', align: 'right', cell: actions },
  ]
  return (
    <DataTable
      label="Premium domains"
      rows={domains}
      rowKey={(domain) => domain.id}
      columns={columns}
      edge="box"
      minWidth="min-w-[720px]"
      rowClassName={(domain) => selected.has(domain.id) && 'bg-brand-50/50'}
      // Phones get a card per name: six columns need room.
      stacked={(domain) => (
        <PremiumDomainCard
          domain={domain}
          selected={selected.has(domain.id)}
          onToggle={() => onToggle(domain.id)}
          actions={actions(domain)}
        />
      )}
    />
  )
}

/**
 * A premium name as a card: select box, name, category, status and
 * badges, description, optionally its keywords, then price and actions. The
 * grid view shows these, and the table on a phone.
 */
function PremiumDomainCard({
  domain,
  selected,
  onToggle,
  actions,
  keywords: showKeywords = false,
}: {
  domain: AdminPremiumDomain
  selected: boolean
  onToggle: () => void
  actions: ReactNode
  keywords?: boolean
}) {
  const keywords = showKeywords ? (domain.keywords ?? []) : []
  const rest = keywords.length - 2
  return (
    <>
      <div className="flex min-w-0 items-start gap-2">
        <span className="pt-1">
          <SelectBox domain={domain} selected={selected} onToggle={onToggle} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-slate-900">
            <DomainName>{fullName(domain)}</DomainName>
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-1">
            <span className="mr-1 text-xs text-slate-500">{capitalise(domain.category)}</span>
            <StatusBadge domain={domain} />
            {domain.featured && <Badge tone="premium">Featured</Badge>}
          </div>
        </div>
      </div>
      {domain.description && <p className="mt-3 line-clamp-2 text-sm text-slate-600">{domain.description}</p>}
      {keywords.length > 0 && (
        <div className="mt-3 flex flex-wrap gap-1" aria-label="Keywords">
          {keywords.slice(0, 2).map((keyword) => (
            <Badge key={keyword} tone="neutral">
              {keyword}
            </Badge>
          ))}
          {rest > 0 && <Badge tone="muted">+{rest} more</Badge>}
        </div>
      )}
      <div className="mt-auto flex flex-wrap items-end justify-between gap-2 pt-4">
        <PriceCell domain={domain} />
        <div className="ml-auto">{actions}</div>
      </div>
    </>
  )
}

/** The premium names as cards: keywords and description show here. */
export function PremiumDomainGrid({ domains, selected, onToggle, actions }: ListProps) {
  return (
    <ul aria-label="Premium domains" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {domains.map((domain) => (
        <li
          key={domain.id}
          aria-label={fullName(domain)}
          className={cx(
            'flex min-w-0 flex-col rounded-xl border bg-white p-4 shadow-sm',
            selected.has(domain.id) ? 'border-brand-400 ring-1 ring-brand-200' : 'border-slate-200',
          )}
        >
          <PremiumDomainCard
            domain={domain}
            selected={selected.has(domain.id)}
            onToggle={() => onToggle(domain.id)}
            actions={actions(domain)}
            keywords
          />
        </li>
      ))}
    </ul>
  )
}
