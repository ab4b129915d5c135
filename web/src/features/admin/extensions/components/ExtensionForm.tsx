import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { useRules, type Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import {
  adminExtensionsQueryKey,
  createExtension,
  errorText,
  updateExtension,
  type AdminExtension,
  type LengthPriceRule,
} from '../api/extensions'
import { LengthRulesEditor } from './LengthRulesEditor'

/**
 * Spec section 5: extension admin schema and simple extension form. The
 * bounds are the server's (GET /api/rules): the least base price, and name
 * lengths within a label's; without them the server alone checks those.
 */
function extensionSchema(rules: Rules | undefined) {
  const minPrice = rules?.extensions.minBasePrice
  const priceMessage = minPrice === undefined ? undefined : `Base price must be at least ${minPrice}`
  const name = rules?.domainName
  let basePrice = z.number({ error: priceMessage })
  if (minPrice !== undefined) basePrice = basePrice.min(minPrice, priceMessage)
  let minNameLength = z.number().int()
  if (name) minNameLength = minNameLength.min(name.minLength).max(name.maxLength)
  return z.object({
    extension: z
      .string()
      .trim()
      .regex(/^\.[a-z0-9-]+\.[a-z0-9-]+$/i, "Extension must be in format like '.example.com'"),
    basePrice,
    description: z
      .string()
      .trim()
      .min(rules?.extensions.minDescriptionLength ?? 1, 'Description is required')
      .max(
        rules?.extensions.maxDescriptionLength ?? Number.MAX_SAFE_INTEGER,
        `Description must be at most ${rules?.extensions.maxDescriptionLength} characters`,
      ),
    active: z.boolean(),
    minNameLength,
  })
}
type Values = z.infer<ReturnType<typeof extensionSchema>>

const defaults: Values = { extension: '', basePrice: 8, description: '', active: true, minNameLength: 1 }

/** The simple form of the Domain Extensions tab: add an extension, or edit one with its length rules. */
export function ExtensionForm({ editing, onDone }: { editing: AdminExtension | null; onDone: () => void }) {
  const queryClient = useQueryClient()
  const [rules, setRules] = useState<LengthPriceRule[]>(editing?.lengthBasedPricing ?? [])
  const form = useForm<Values>({
    resolver: useRulesResolver(extensionSchema),
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
  const serverRules = useRules()
  const nameLengths = serverRules?.domainName

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
      toast({ title: 'Success', description: editing ? 'Domain extension has been updated' : 'Domain extension has been added' })
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
                <Input
                  {...ids}
                  type="number"
                  min={serverRules?.extensions.minBasePrice}
                  step={0.01}
                  {...form.register('basePrice', { valueAsNumber: true })}
                />
              )}
            </Field>
            <Field label="Description" error={errors.description?.message} className="sm:col-span-2">
              {(ids) => <Textarea {...ids} rows={2} {...form.register('description')} />}
            </Field>
            <Field
              label="Minimum name length"
              error={
                errors.minNameLength &&
                (nameLengths
                  ? `Minimum name length must be ${nameLengths.minLength} to ${nameLengths.maxLength}`
                  : 'Minimum name length must be a whole number')
              }
            >
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={nameLengths?.minLength}
                  max={nameLengths?.maxLength}
                  {...form.register('minNameLength', { valueAsNumber: true })}
                />
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
