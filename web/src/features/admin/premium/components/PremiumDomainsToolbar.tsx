import { ArrowDown, ArrowUp, ArrowUpDown, Download, Filter, LayoutGrid, Search, Table2 } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { nextTableSort } from '@/components/ui/DataTable'
import { Input, Select } from '@/components/ui/form'
import { PremiumCategoryOptions } from '@/components/PremiumCategoryOptions'
import { cx } from '@/lib/classNames'
import {
  csvFileName,
  defaultFilters,
  filtersActive,
  premiumDomainsCsv,
  type AdminPremiumDomain,
  type PremiumFilters,
  type SortKey,
  type SortState,
  type StatusFilter,
} from '../api/premiumAdmin'
import { Popover } from './Popover'

export type View = 'table' | 'grid'

const sortLabels: Record<SortKey, string> = { name: 'Name', price: 'Price', discount: 'Discount' }

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

/** Search, filters, sort, table or grid, and the CSV export of what is shown. */
export function PremiumDomainsToolbar({
  filters,
  setFilters,
  sort,
  setSort,
  view,
  setView,
  shown,
}: {
  filters: PremiumFilters
  setFilters: (update: (filters: PremiumFilters) => PremiumFilters) => void
  sort: SortState
  setSort: (update: (sort: SortState) => SortState) => void
  view: View
  setView: (view: View) => void
  /** The names shown, in order: what Export CSV saves. */
  shown: AdminPremiumDomain[]
}) {
  const activeFilterCount =
    (filters.category !== 'all' ? 1 : 0) + (filters.status !== 'all' ? 1 : 0) + (filters.featuredOnly ? 1 : 0)
  return (
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
          <FiltersForm filters={filters} onChange={(next) => setFilters(() => next)} />
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
                  onClick={() => setSort((current) => nextTableSort(current, key))}
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
  )
}

function FiltersForm({ filters, onChange }: { filters: PremiumFilters; onChange: (filters: PremiumFilters) => void }) {
  return (
    <div className="space-y-3">
      <label className="block space-y-1 text-sm font-medium text-slate-700">
        <span>Category</span>
        <Select value={filters.category} onChange={(event) => onChange({ ...filters, category: event.target.value })}>
          <option value="all">All categories</option>
          <PremiumCategoryOptions />
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

