import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Plus, Power, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Textarea } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import {
  adminExtensionsQueryKey,
  adminExtensionsQueryOptions,
  createExtension,
  deleteExtension,
  errorText,
  updateExtension,
  type AdminExtension,
  type LengthPriceRule,
} from '../api/extensions'
import { ConfirmDelete } from './ConfirmDelete'
import { LengthRulesEditor } from './LengthRulesEditor'

// Spec section 5: extension admin schema and simple extension form.
const schema = z.object({
  extension: z
    .string()
    .trim()
    .regex(/^\.[a-z0-9-]+\.[a-z0-9-]+$/i, "Extension must be in format like '.example.com'"),
  basePrice: z.number({ error: 'Base price must be at least 1' }).min(1, 'Base price must be at least 1'),
  description: z.string().trim().min(5, 'Description is required'),
  active: z.boolean(),
  minNameLength: z.number().int().min(1).max(63),
})
type Values = z.infer<typeof schema>

const defaults: Values = { extension: '', basePrice: 8, description: '', active: true, minNameLength: 1 }

function ExtensionForm({ editing, onDone }: { editing: AdminExtension | null; onDone: () => void }) {
  const queryClient = useQueryClient()
  const [rules, setRules] = useState<LengthPriceRule[]>(editing?.lengthBasedPricing ?? [])
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: editing
      ? {
          extension: editing.extension,
          basePrice: editing.basePrice,
          description: editing.description,
          active: editing.active,
          minNameLength: editing.minNameLength ?? 1,
        }
      : defaults,
  })
  const { errors } = form.formState
  const basePrice = form.watch('basePrice')

  const save = useMutation({
    mutationFn: (values: Values) => {
      // The server takes no null dates in a rule it is sent: an absent one is none.
      const lengthBasedPricing = rules.map((rule) => ({
        ...rule,
        promotionStartDate: rule.promotionStartDate ?? undefined,
        promotionEndDate: rule.promotionEndDate ?? undefined,
      }))
      const body = { ...values, lengthBasedPricing }
      return editing ? updateExtension(editing.id, body) : createExtension(body)
    },
    onSuccess: async () => {
      if (!editing) toast({ title: 'Success', description: 'Domain extension has been added' })
      await queryClient.invalidateQueries({ queryKey: adminExtensionsQueryKey })
      onDone()
    },
    onError: (error) =>
      toast({
        title: 'Error',
        variant: 'destructive',
        description: `Failed to ${editing ? 'update' : 'add'} domain extension: ${errorText(error)}`,
      }),
  })

  return (
    <Card className="border-brand-200">
      <CardHeader className="p-4 sm:p-6">
        <CardTitle>{editing ? `Edit ${editing.extension}` : 'Add Extension'}</CardTitle>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        <form noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Extension" error={errors.extension?.message}>
              {(ids) => <Input {...ids} placeholder=".example.tld" {...form.register('extension')} />}
            </Field>
            <Field label="Base price (USD)" error={errors.basePrice?.message}>
              {(ids) => (
                <Input {...ids} type="number" min={1} step={0.01} {...form.register('basePrice', { valueAsNumber: true })} />
              )}
            </Field>
            <Field label="Description" error={errors.description?.message} className="sm:col-span-2">
              {(ids) => <Textarea {...ids} rows={2} {...form.register('description')} />}
            </Field>
            <Field label="Minimum name length" error={errors.minNameLength && 'Minimum name length must be 1 to 63'}>
              {(ids) => (
                <Input {...ids} type="number" min={1} max={63} {...form.register('minNameLength', { valueAsNumber: true })} />
              )}
            </Field>
            <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
              <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register('active')} />
              Active
            </label>
          </div>
          <LengthRulesEditor rules={rules} onChange={setRules} basePrice={Number(basePrice) || 0} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {editing ? 'Update Extension' : 'Save Extension'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}

/** The Domain Extensions tab of the admin dashboard. */
export function ExtensionsPanel() {
  const queryClient = useQueryClient()
  const { data, isPending, isError } = useQuery(adminExtensionsQueryOptions())
  const [form, setForm] = useState<{ editing: AdminExtension | null } | null>(null)
  const [deleting, setDeleting] = useState<AdminExtension | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminExtensionsQueryKey })

  const toggle = useMutation({
    mutationFn: (ext: AdminExtension) => updateExtension(ext.id, { active: !ext.active }),
    onSuccess: refresh,
    onError: (error) =>
      toast({ title: 'Error', variant: 'destructive', description: `Failed to update domain extension: ${errorText(error)}` }),
  })
  const remove = useMutation({
    mutationFn: (ext: AdminExtension) => deleteExtension(ext.id),
    onSuccess: async () => {
      setDeleting(null)
      await refresh()
    },
    onError: (error) => {
      setDeleting(null)
      toast({ title: 'Error', variant: 'destructive', description: `Failed to delete domain extension: ${errorText(error)}` })
    },
  })

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
          ) : data.length === 0 ? (
            <p className="py-10 text-center text-slate-500">No domain extensions found</p>
          ) : (
            <div className="-mx-4 overflow-x-auto px-4 sm:-mx-6 sm:px-6">
              <table className="w-full min-w-[36rem] text-left text-sm" aria-label="Domain extensions">
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                  <tr>
                    <th className="py-2 pr-4 font-medium">Extension</th>
                    <th className="py-2 pr-4 font-medium">Price</th>
                    <th className="py-2 pr-4 font-medium">Description</th>
                    <th className="py-2 pr-4 font-medium">Status</th>
                    <th className="py-2 text-right font-medium">Actions</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {data.map((ext) => (
                    <tr key={ext.id}>
                      <td className="py-3 pr-4 font-medium text-slate-900">{ext.extension}</td>
                      <td className="py-3 pr-4 tabular-nums">
                        ${ext.basePrice.toFixed(2)}
                        {(ext.lengthBasedPricing ?? []).length > 0 && (
                          <span className="block text-xs text-slate-500">
                            {ext.lengthBasedPricing?.length} length rule
                            {ext.lengthBasedPricing?.length === 1 ? '' : 's'}
                          </span>
                        )}
                      </td>
                      <td className="max-w-xs py-3 pr-4 text-slate-600">{ext.description}</td>
                      <td className="py-3 pr-4">
                        <Badge tone={ext.active ? 'success' : 'muted'}>{ext.active ? 'Active' : 'Inactive'}</Badge>
                      </td>
                      <td className="py-3">
                        <div className="flex justify-end gap-1">
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
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
