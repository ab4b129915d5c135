import { useState, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Plus, Power, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import {
  adminExtensionsQueryKey,
  adminExtensionsQueryOptions,
  deleteExtension,
  errorText,
  updateExtension,
  type AdminExtension,
} from '../api/extensions'
import { ConfirmDelete } from './ConfirmDelete'
import { ExtensionForm } from './ExtensionForm'

/** The Domain Extensions tab of the admin dashboard. */
export function ExtensionsPanel() {
  const queryClient = useQueryClient()
  const { data, isPending, isError } = useQuery(adminExtensionsQueryOptions())
  const [form, setForm] = useState<{ editing: AdminExtension | null } | null>(null)
  const [deleting, setDeleting] = useState<AdminExtension | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminExtensionsQueryKey })

  const toggle = useMutation({
    mutationFn: (ext: AdminExtension) => updateExtension(ext.id, { active: !ext.active }),
    onSuccess: async (_, ext) => {
      toast({
        title: 'Success',
        description: `${ext.extension} is now ${ext.active ? 'inactive: it is no longer offered' : 'active and offered for registration'}`,
      })
      await refresh()
    },
    onError: (error) =>
      toast({ title: 'Error', variant: 'destructive', description: `Failed to update domain extension: ${errorText(error)}` }),
  })
  const remove = useMutation({
    mutationFn: (ext: AdminExtension) => deleteExtension(ext.id),
    onSuccess: async (_, ext) => {
      setDeleting(null)
      toast({ title: 'Success', description: `Domain extension ${ext.extension} has been deleted` })
      await refresh()
    },
    onError: (error) => {
      setDeleting(null)
      toast({ title: 'Error', variant: 'destructive', description: `Failed to delete domain extension: ${errorText(error)}` })
    },
  })

  const actions = (ext: AdminExtension) => (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`${ext.active ? 'Deactivate' : 'Activate'} ${ext.extension}`}
        title={ext.active ? 'Deactivate' : 'Activate'}
        disabled={toggle.isPending}
        onClick={() => toggle.mutate(ext)}
      >
        <Power className={ext.active ? 'h-4 w-4 text-emerald-600' : 'h-4 w-4'} aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit ${ext.extension}`}
        title="Edit"
        onClick={() => setForm({ editing: ext })}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete ${ext.extension}`}
        title="Delete"
        onClick={() => setDeleting(ext)}
      >
        <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
      </Button>
    </div>
  )

  const columns: Column<AdminExtension>[] = [
    { header: 'Extension', cell: (ext) => ext.extension, className: 'font-medium text-slate-900' },
    { header: 'Price', cell: (ext) => <ExtensionPrice ext={ext} />, className: 'tabular-nums' },
    { header: 'Description', cell: (ext) => ext.description, className: 'max-w-xs text-slate-600' },
    { header: 'Status', cell: (ext) => <ExtensionStatus ext={ext} /> },
    { header: 'Actions', align: 'right', cell: actions },
  ]

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
          <div className="space-y-1">
            <CardTitle>Domain Extensions</CardTitle>
            <CardDescription>The extensions on sale, their prices and length-based pricing.</CardDescription>
          </div>
          <div className="flex items-center gap-2">
            <HelpTooltip topic="admin-tools" label="Help" align="end">
              <p>
                Each extension has a base price per year. Length-based rules override it for names of certain lengths,
                for example 1-3 characters at a higher price; with no rules the base price applies.
              </p>
              <p>Rules may not overlap: each length is priced by one rule only. Deactivate an extension to take it out of search without deleting it.</p>
            </HelpTooltip>
            <Button onClick={() => setForm({ editing: null })} disabled={form !== null && form.editing === null}>
              <Plus className="h-4 w-4" aria-hidden />
              Add Extension
            </Button>
          </div>
        </CardHeader>
        <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
          {form && (
            <div className="mb-6">
              <ExtensionForm key={form.editing?.id ?? 'new'} editing={form.editing} onDone={() => setForm(null)} />
            </div>
          )}
          {isPending ? (
            <div className="flex justify-center py-10">
              <Spinner />
            </div>
          ) : isError ? (
            <p className="py-10 text-center text-red-600">Failed to load domain extensions.</p>
          ) : (
            <DataTable
              label="Domain extensions"
              rows={data}
              rowKey={(ext) => ext.id}
              columns={columns}
              edge="box"
              minWidth="min-w-[36rem]"
              // Phones get a card per extension: five columns need room.
              stacked={(ext) => <ExtensionCard ext={ext} actions={actions(ext)} />}
              empty={<p className="py-10 text-center text-slate-500">No domain extensions found</p>}
            />
          )}
        </CardContent>
      </Card>

      <ConfirmDelete
        extension={deleting?.extension ?? ''}
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
      />
    </div>
  )
}

function ExtensionStatus({ ext }: { ext: AdminExtension }) {
  return <Badge tone={ext.active ? 'success' : 'muted'}>{ext.active ? 'Active' : 'Inactive'}</Badge>
}

/** An extension on a phone: its name, status and price, its actions, then its description. */
function ExtensionCard({ ext, actions }: { ext: AdminExtension; actions: ReactNode }) {
  const rules = ext.lengthBasedPricing?.length ?? 0
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-medium text-slate-900">{ext.extension}</p>
          <p className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <ExtensionStatus ext={ext} />
            <span className="font-medium tabular-nums text-slate-900">${ext.basePrice.toFixed(2)}</span>
            {rules > 0 && (
              <span className="text-xs text-slate-500">
                {rules} length rule{rules === 1 ? '' : 's'}
              </span>
            )}
          </p>
        </div>
        {actions}
      </div>
      {ext.description && <p className="mt-2 break-words text-sm text-slate-600">{ext.description}</p>}
    </>
  )
}

/** The base price, and how many length rules change it. */
function ExtensionPrice({ ext }: { ext: AdminExtension }) {
  const rules = ext.lengthBasedPricing?.length ?? 0
  return (
    <>
      ${ext.basePrice.toFixed(2)}
      {rules > 0 && (
        <span className="block text-xs text-slate-500">
          {rules} length rule{rules === 1 ? '' : 's'}
        </span>
      )}
    </>
  )
}
