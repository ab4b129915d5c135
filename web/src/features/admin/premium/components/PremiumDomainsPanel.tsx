import { useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Crown, Plus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { EmptyState } from '@/components/ui/DataTable'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { serverMessage } from '@/lib/api'
import {
  adminPremiumDomainsQueryOptions,
  bulkPremiumDomains,
  defaultFilters,
  defaultSort,
  deletePremiumDomain,
  filterDomains,
  premiumDomainsKey,
  sortDomains,
  updatePremiumDomain,
  type AdminPremiumDomain,
  type BulkAction,
  type PremiumDomainInput,
  type PremiumFilters,
  type SortState,
} from '../api/premiumAdmin'
import { ConfirmPremiumDelete, type Confirm } from './ConfirmPremiumDelete'
import { PremiumBulkActions } from './PremiumBulkActions'
import { PremiumDomainDialog } from './PremiumDomainDialog'
import { PremiumDomainGrid, PremiumDomainTable, RowActions } from './PremiumDomainList'
import { PremiumDomainsToolbar, type View } from './PremiumDomainsToolbar'

const crown = <Crown className="h-8 w-8 text-slate-300" aria-hidden />
const emptyBox = 'rounded-xl border border-dashed border-slate-300 px-4'

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
    onSuccess: async () => {
      toast({ title: 'Success', description: 'Premium domain updated successfully' })
      await refresh()
    },
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
      toast({ title: 'Success', description: 'Premium domain deleted successfully' })
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
        <PremiumDomainsToolbar
          filters={filters}
          setFilters={setFilters}
          sort={sort}
          setSort={setSort}
          view={view}
          setView={setView}
          shown={shown}
        />

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
          <EmptyState icon={crown} title="No premium domains found" className={emptyBox}>
            <Button onClick={openAdd} variant="outline" className="mt-4">
              <Plus className="h-4 w-4" aria-hidden />
              Add Premium Domain
            </Button>
          </EmptyState>
        ) : (
          <>
            <PremiumBulkActions
              allShownSelected={allShownSelected}
              toggleAll={toggleAll}
              shownCount={shown.length}
              selectedCount={selectedIds.length}
              runBulk={runBulk}
              busy={bulk.isPending}
            />

            <p className="text-sm text-slate-600" aria-live="polite">
              {shown.length} {shown.length === 1 ? 'domain' : 'domains'} found
            </p>

            {shown.length === 0 ? (
              <EmptyState icon={crown} title="No domains match your filters" className={emptyBox}>
                <Button variant="outline" className="mt-4" onClick={() => setFilters(defaultFilters)}>
                  Clear Filters
                </Button>
              </EmptyState>
            ) : view === 'table' ? (
              <PremiumDomainTable domains={shown} selected={selected} onToggle={toggleSelected} actions={rowActions} />
            ) : (
              <PremiumDomainGrid domains={shown} selected={selected} onToggle={toggleSelected} actions={rowActions} />
            )}
          </>
        )}
      </CardContent>

      <PremiumDomainDialog open={dialogOpen} onOpenChange={setDialogOpen} domain={editing} />

      <ConfirmPremiumDelete
        confirm={confirm}
        onCancel={() => setConfirm(null)}
        pending={remove.isPending || bulk.isPending}
        onConfirm={(target) => {
          if (target.kind === 'one') remove.mutate(target.domain.id)
          else bulk.mutate({ action: 'delete', ids: target.ids })
        }}
      />
    </Card>
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
