import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import {
  adminExtensionsQueryKey,
  createExtension,
  errorText,
  updateExtension,
  type AdminExtension,
  type LengthPriceRule,
} from '../api/extensions'
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

/** The simple form of the Domain Extensions tab: add an extension, or edit one with its length rules. */
export function ExtensionForm({ editing, onDone }: { editing: AdminExtension | null; onDone: () => void }) {
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
