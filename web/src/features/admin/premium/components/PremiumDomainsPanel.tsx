import { useMemo, useState, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  Crown,
  Download,
  Filter,
  LayoutGrid,
  Lock,
  Pencil,
  Plus,
  Search,
  Star,
  Table2,
  Trash2,
  Unlock,
} from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input, Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { serverMessage } from '@/lib/api'
import { capitalise, premiumCategories } from '@/lib/catalog'
import { cx } from '@/lib/classNames'
import { formatUsd, formatUtcDate } from '@/lib/format'
import {
  adminPremiumDomainsQueryOptions,
  bulkPremiumDomains,
  csvFileName,
  defaultFilters,
  defaultSort,
  deletePremiumDomain,
  discountedPrice,
  filterDomains,
  filtersActive,
  nextSort,
  premiumDomainsCsv,
  premiumDomainsKey,
  sortDomains,
  updatePremiumDomain,
  type AdminPremiumDomain,
  type BulkAction,
  type PremiumDomainInput,
  type PremiumFilters,
  type SortKey,
  type SortState,
  type StatusFilter,
} from '../api/premiumAdmin'
import { Popover } from './Popover'
import { PremiumDomainDialog } from './PremiumDomainDialog'

type View = 'table' | 'grid'
type Confirm = { kind: 'one'; domain: AdminPremiumDomain } | { kind: 'bulk'; ids: number[] }

const sortLabels: Record<SortKey, string> = { name: 'Name', price: 'Price', discount: 'Discount' }

const bulkActions: Array<{ action: BulkAction; label: string; icon: typeof Star }> = [
  { action: 'makeAvailable', label: 'Make Available', icon: Unlock },
  { action: 'makeUnavailable', label: 'Make Unavailable', icon: Lock },
  { action: 'feature', label: 'Feature', icon: Star },
  { action: 'unfeature', label: 'Unfeature', icon: Star },
]

const fullName = (domain: AdminPremiumDomain) => `${domain.name}${domain.extension}`

function downloadCsv(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** The admin dashboard's Premium Domains tab (spec section 2). */
export function PremiumDomainsPanel() {
  const queryClient = useQueryClient()
  const query = useQuery(adminPremiumDomainsQueryOptions())
  const [filters, setFilters] = useState<PremiumFilters>(defaultFilters)
  const [sort, setSort] = useState<SortState>(defaultSort)
  const [view, setView] = useState<View>('table')
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [editing, setEditing] = useState<AdminPremiumDomain | null>(null)
  const [dialogOpen, setDialogOpen] = useState(false)
  const [confirm, setConfirm] = useState<Confirm | null>(null)

  const all = useMemo(() => query.data ?? [], [query.data])
  const shown = useMemo(() => sortDomains(filterDomains(all, filters), sort), [all, filters, sort])
  // Only names still listed stay selected (a refetch may drop some).
  const selectedIds = all.filter((d) => selected.has(d.id)).map((d) => d.id)
  const allShownSelected = shown.length > 0 && shown.every((d) => selected.has(d.id))

  const refresh = () => queryClient.invalidateQueries({ queryKey: premiumDomainsKey })

  const update = useMutation({
    mutationFn: ({ id, input }: { id: number; input: PremiumDomainInput }) => updatePremiumDomain(id, input),
    onSuccess: refresh,
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to update premium domain',
        variant: 'destructive',
      }),
  })

  const remove = useMutation({
    mutationFn: (id: number) => deletePremiumDomain(id),
    onSuccess: async (_, id) => {
      setConfirm(null)
      setSelected((current) => {
        const next = new Set(current)
        next.delete(id)
        return next
      })
      await refresh()
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to delete premium domain',
        variant: 'destructive',
      }),
  })

  const bulk = useMutation({
    mutationFn: ({ action, ids }: { action: BulkAction; ids: number[] }) => bulkPremiumDomains(action, ids),
    onSuccess: async (_, { action }) => {
      toast({ title: 'Success', description: 'Bulk action completed successfully' })
      if (action === 'delete') {
        setConfirm(null)
        setSelected(new Set())
      }
      await refresh()
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to perform bulk action',
        variant: 'destructive',
      }),
  })

  const runBulk = (action: BulkAction) => {
    if (selectedIds.length === 0) {
      toast({ title: 'No domains selected', description: 'Please select at least one domain first' })
      return
    }
    if (action === 'delete') setConfirm({ kind: 'bulk', ids: selectedIds })
    else bulk.mutate({ action, ids: selectedIds })
  }

  const toggleSelected = (id: number) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const toggleAll = () =>
    setSelected((current) => {
      const next = new Set(current)
      if (allShownSelected) shown.forEach((d) => next.delete(d.id))
      else shown.forEach((d) => next.add(d.id))
      return next
    })

  const openAdd = () => {
    setEditing(null)
    setDialogOpen(true)
  }
  const openEdit = (domain: AdminPremiumDomain) => {
    setEditing(domain)
    setDialogOpen(true)
  }

  const rowActions = (domain: AdminPremiumDomain) => (
    <RowActions
      domain={domain}
      busy={update.isPending && update.variables?.id === domain.id}
      onToggleAvailable={() => update.mutate({ id: domain.id, input: { isAvailable: !domain.isAvailable } })}
      onToggleFeatured={() => update.mutate({ id: domain.id, input: { featured: !domain.featured } })}
      onEdit={() => openEdit(domain)}
      onDelete={() => setConfirm({ kind: 'one', domain })}
    />
  )

  const activeFilterCount =
    (filters.category !== 'all' ? 1 : 0) + (filters.status !== 'all' ? 1 : 0) + (filters.featuredOnly ? 1 : 0)

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 px-4 sm:flex-row sm:px-6 sm:items-start sm:justify-between">
        <div className="space-y-1">
          <div className="flex items-center gap-2">
            <CardTitle>Premium Domains</CardTitle>
            <HelpLink />
          </div>
          <CardDescription>Names sold at their own price, with discounts, featuring and availability.</CardDescription>
        </div>
        <Button onClick={openAdd} className="self-start">
          <Plus className="h-4 w-4" aria-hidden />
          Add Premium Domain
        </Button>
      </CardHeader>

      <CardContent className="space-y-4 px-4 sm:px-6">
        <div className="flex flex-col gap-2 lg:flex-row lg:items-center">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" aria-hidden />
            <Input
              type="search"
              aria-label="Search premium domains"
              placeholder="Search names, descriptions, keywords..."
              className="pl-9"
              value={filters.search}
              onChange={(event) => setFilters((f) => ({ ...f, search: event.target.value }))}
            />
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Popover
              label="Filters"
              triggerClassName={buttonStyles({ variant: 'outline', size: 'md' })}
              trigger={
                <>
                  <Filter className="h-4 w-4" aria-hidden />
                  Filters
                  {activeFilterCount > 0 && (
                    <span className="rounded-full bg-brand-600 px-1.5 text-xs text-white" aria-label={`${activeFilterCount} active`}>
                      {activeFilterCount}
                    </span>
                  )}
                </>
              }
            >
              <FiltersForm filters={filters} onChange={setFilters} />
            </Popover>
            <Popover
              label="Sort"
              triggerClassName={buttonStyles({ variant: 'outline', size: 'md' })}
              trigger={
                <>
                  <ArrowUpDown className="h-4 w-4" aria-hidden />
                  Sort: {sortLabels[sort.key]} {sort.direction === 'asc' ? '↑' : '↓'}
                </>
              }
              panelClassName="w-56"
            >
              <div className="space-y-1" role="group" aria-label="Sort by">
                {(Object.keys(sortLabels) as SortKey[]).map((key) => {
                  const active = sort.key === key
                  const Arrow = sort.direction === 'asc' ? ArrowUp : ArrowDown
                  return (
                    <button
                      key={key}
                      type="button"
                      aria-pressed={active}
                      onClick={() => setSort((current) => nextSort(current, key))}
                      className={cx(
                        'flex w-full items-center justify-between rounded-lg px-3 py-2 text-left text-sm',
                        active ? 'bg-brand-50 font-medium text-brand-700' : 'text-slate-700 hover:bg-slate-50',
                      )}
                    >
                      {sortLabels[key]}
                      {active && (
                        <span className="inline-flex items-center gap-1 text-xs">
                          <Arrow className="h-3.5 w-3.5" aria-hidden />
                          {sort.direction === 'asc' ? 'Ascending' : 'Descending'}
                        </span>
                      )}
                    </button>
                  )
                })}
                <p className="px-3 pt-1 text-xs text-slate-500">Choose the active key again to flip the order.</p>
              </div>
            </Popover>
            <div role="group" aria-label="View" className="inline-flex rounded-lg border border-slate-300 bg-white p-0.5 shadow-sm">
              {(
                [
                  ['table', 'Table view', Table2],
                  ['grid', 'Grid view', LayoutGrid],
                ] as const
              ).map(([value, label, Icon]) => (
                <button
                  key={value}
                  type="button"
                  aria-label={label}
                  aria-pressed={view === value}
                  onClick={() => setView(value)}
                  className={cx(
                    'inline-flex h-8 w-9 items-center justify-center rounded-md transition',
                    view === value ? 'bg-brand-600 text-white' : 'text-slate-600 hover:bg-slate-100',
                  )}
                >
                  <Icon className="h-4 w-4" aria-hidden />
                </button>
              ))}
            </div>
            <Button
              variant="outline"
              onClick={() => downloadCsv(premiumDomainsCsv(shown), csvFileName())}
              disabled={shown.length === 0}
            >
              <Download className="h-4 w-4" aria-hidden />
              Export CSV
            </Button>
          </div>
        </div>

        {query.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner label="Loading premium domains" />
          </div>
        ) : query.isError ? (
          <div className="py-10 text-center">
            <p className="text-slate-600">Could not load the premium domains.</p>
            <Button variant="outline" className="mt-3" onClick={() => query.refetch()}>
              Retry
            </Button>
          </div>
        ) : all.length === 0 ? (
          <EmptyState text="No premium domains found">
            <Button onClick={openAdd} variant="outline" className="mt-4">
              <Plus className="h-4 w-4" aria-hidden />
              Add Premium Domain
            </Button>
          </EmptyState>
        ) : (
          <>
            <div className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-slate-50 p-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex items-center gap-3 px-1">
                <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-700">
                  <input
                    type="checkbox"
                    className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                    checked={allShownSelected}
                    onChange={toggleAll}
                    disabled={shown.length === 0}
                  />
                  Select all
                </label>
                <span className="text-sm text-slate-500" aria-live="polite">
                  {selectedIds.length} selected
                </span>
              </div>
              <div role="group" aria-label="Bulk actions" className="flex flex-wrap gap-1.5">
                {bulkActions.map(({ action, label, icon: Icon }) => (
                  <Button
                    key={action}
                    size="sm"
                    variant="outline"
                    onClick={() => runBulk(action)}
                    disabled={bulk.isPending}
                  >
                    <Icon className={cx('h-3.5 w-3.5', action === 'feature' && 'fill-amber-400 text-amber-500')} aria-hidden />
                    {label}
                  </Button>
                ))}
                <Button size="sm" variant="destructive" onClick={() => runBulk('delete')} disabled={bulk.isPending}>
                  <Trash2 className="h-3.5 w-3.5" aria-hidden />
                  Delete
                </Button>
              </div>
            </div>

            <p className="text-sm text-slate-600" aria-live="polite">
              {shown.length} {shown.length === 1 ? 'domain' : 'domains'} found
            </p>

            {shown.length === 0 ? (
              <EmptyState text="No domains match your filters">
                <Button variant="outline" className="mt-4" onClick={() => setFilters(defaultFilters)}>
                  Clear Filters
                </Button>
              </EmptyState>
            ) : view === 'table' ? (
              <DomainTable domains={shown} selected={selected} onToggle={toggleSelected} actions={rowActions} />
            ) : (
              <DomainGrid domains={shown} selected={selected} onToggle={toggleSelected} actions={rowActions} />
            )}
          </>
        )}
      </CardContent>

      <PremiumDomainDialog open={dialogOpen} onOpenChange={setDialogOpen} domain={editing} />

      <Dialog open={confirm !== null} onOpenChange={(open) => !open && setConfirm(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{confirm?.kind === 'bulk' ? 'Delete selected domains?' : 'Delete premium domain?'}</DialogTitle>
            <DialogDescription>
              {confirm?.kind === 'bulk'
                ? `This deletes ${confirm.ids.length} premium ${confirm.ids.length === 1 ? 'domain' : 'domains'}. This cannot be undone.`
                : confirm?.kind === 'one'
                  ? `This deletes ${fullName(confirm.domain)}. This cannot be undone.`
                  : null}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={remove.isPending || bulk.isPending}
              onClick={() => {
                if (confirm?.kind === 'one') remove.mutate(confirm.domain.id)
                else if (confirm?.kind === 'bulk') bulk.mutate({ action: 'delete', ids: confirm.ids })
              }}
            >
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}

function EmptyState({ text, children }: { text: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 px-4 py-12 text-center">
      <Crown className="h-8 w-8 text-slate-300" aria-hidden />
      <p className="mt-3 font-medium text-slate-700">{text}</p>
      {children}
    </div>
  )
}

function FiltersForm({ filters, onChange }: { filters: PremiumFilters; onChange: (filters: PremiumFilters) => void }) {
  return (
    <div className="space-y-3">
      <label className="block space-y-1 text-sm font-medium text-slate-700">
        <span>Category</span>
        <Select value={filters.category} onChange={(event) => onChange({ ...filters, category: event.target.value })}>
          <option value="all">All categories</option>
          {premiumCategories.map((category) => (
            <option key={category} value={category}>
              {capitalise(category)}
            </option>
          ))}
        </Select>
      </label>
      <label className="block space-y-1 text-sm font-medium text-slate-700">
        <span>Status</span>
        <Select
          value={filters.status}
          onChange={(event) => onChange({ ...filters, status: event.target.value as StatusFilter })}
        >
          <option value="all">All</option>
          <option value="available">Available</option>
          <option value="reserved">Reserved</option>
        </Select>
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
          checked={filters.featuredOnly}
          onChange={(event) => onChange({ ...filters, featuredOnly: event.target.checked })}
        />
        Featured only
      </label>
      <Button
        variant="ghost"
        size="sm"
        className="w-full"
        onClick={() => onChange({ ...defaultFilters, search: filters.search })}
        disabled={!filtersActive({ ...filters, search: '' })}
      >
        Reset
      </Button>
    </div>
  )
}

function HelpLink() {
  return (
    <HelpTooltip topic="admin-tools" label="Help">
      <p>
        Premium names are sold at their own yearly price (at least $10) instead of the regular $8. Reserved names stay
        listed here but cannot be registered.
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>A discount lowers the price by its percentage until its end date, if it has one.</li>
        <li>Featured names are shown first on the site.</li>
        <li>Tick several names to make them available or reserved, feature them or delete them at once.</li>
        <li>Export CSV saves the names currently shown, with your search, filters and order.</li>
      </ul>
    </HelpTooltip>
  )
}

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
      <span className="font-medium text-slate-900">{formatUsd(discountedPrice(domain.price, discount))}</span>
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

function RowActions({
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

interface ListProps {
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

function DomainTable({ domains, selected, onToggle, actions }: ListProps) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="w-full min-w-[720px] text-left text-sm" aria-label="Premium domains">
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="w-10 px-3 py-2.5">
              <span className="sr-only">Selected</span>
            </th>
            <th scope="col" className="px-3 py-2.5 font-medium">Domain</th>
            <th scope="col" className="px-3 py-2.5 font-medium">Price</th>
            <th scope="col" className="px-3 py-2.5 font-medium">Status</th>
            <th scope="col" className="px-3 py-2.5 font-medium">Category</th>
            <th scope="col" className="px-3 py-2.5 text-right font-medium">Actions</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {domains.map((domain) => (
            <tr key={domain.id} className={cx(selected.has(domain.id) && 'bg-brand-50/50')}>
              <td className="px-3 py-2.5">
                <SelectBox domain={domain} selected={selected.has(domain.id)} onToggle={() => onToggle(domain.id)} />
              </td>
              <th scope="row" className="px-3 py-2.5 font-medium text-slate-900">
                <span className="flex items-center gap-1.5">
                  {fullName(domain)}
                  {domain.featured && <Badge tone="premium">Featured</Badge>}
                </span>
                {domain.description && (
                  <span className="mt-0.5 block max-w-xs truncate text-xs font-normal text-slate-500">
                    {domain.description}
                  </span>
                )}
              </th>
              <td className="px-3 py-2.5">
                <PriceCell domain={domain} />
              </td>
              <td className="px-3 py-2.5">
                <StatusBadge domain={domain} />
              </td>
              <td className="px-3 py-2.5 text-slate-600">{capitalise(domain.category)}</td>
              <td className="px-3 py-2.5">{actions(domain)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function DomainGrid({ domains, selected, onToggle, actions }: ListProps) {
  return (
    <ul aria-label="Premium domains" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {domains.map((domain) => {
        const keywords = domain.keywords ?? []
        const rest = keywords.length - 2
        return (
          <li
            key={domain.id}
            aria-label={fullName(domain)}
            className={cx(
              'flex min-w-0 flex-col rounded-xl border bg-white p-4 shadow-sm',
              selected.has(domain.id) ? 'border-brand-400 ring-1 ring-brand-200' : 'border-slate-200',
            )}
          >
            <div className="flex min-w-0 items-start gap-2">
              <span className="pt-1">
                <SelectBox domain={domain} selected={selected.has(domain.id)} onToggle={() => onToggle(domain.id)} />
              </span>
              <div className="min-w-0 flex-1">
                <p className="break-all font-semibold text-slate-900">{fullName(domain)}</p>
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
              <div className="ml-auto">{actions(domain)}</div>
            </div>
          </li>
        )
      })}
    </ul>
  )
}
