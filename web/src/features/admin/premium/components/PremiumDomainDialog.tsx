import { useEffect, useState } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import * as z from 'zod/mini'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { capitalise, defaultExtension, premiumCategories, useExtensions } from '@/lib/catalog'
import { formatUsd } from '@/lib/format'
import {
  createPremiumDomain,
  dayOf,
  discountedPrice,
  localDay,
  premiumDomainsKey,
  splitKeywords,
  updatePremiumDomain,
  type AdminPremiumDomain,
  type PremiumDomainInput,
} from '../api/premiumAdmin'

export const MIN_PRICE = 10
export const MAX_PRICE = 10000

const isNumber = (value: string) => value.trim() !== '' && Number.isFinite(Number(value))

/** The form's schema; `originalDay` is the stored end date, which may stay even if it has passed. */
function premiumSchema(originalDay: string) {
  return z.object({
    name: z.string().check(
      z.trim(),
      z.minLength(1, 'Domain name is required'),
      z.refine((v) => !v.includes('.'), 'Enter the name without its extension'),
    ),
    extension: z.string().check(z.minLength(1, 'Extension is required')),
    category: z.string(),
    isAvailable: z.boolean(),
    price: z.string().check(
      z.refine(isNumber, 'Enter a price'),
      z.refine((v) => !isNumber(v) || Number(v) >= MIN_PRICE, 'Premium domain price must be at least 10'),
      z.refine((v) => !isNumber(v) || Number(v) <= MAX_PRICE, 'Premium domain price must be at most 10000'),
    ),
    discountPercentage: z.string().check(
      z.refine(
        (v) => isNumber(v) && Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 100,
        'Discount must be a whole number between 0 and 100',
      ),
    ),
    discountValidUntil: z.string().check(
      z.refine((v) => !v || v === originalDay || v >= localDay(), 'The discount end date cannot be in the past'),
    ),
    featured: z.boolean(),
    description: z.string(),
    keywords: z.string(),
  })
}

export type PremiumFormValues = z.infer<ReturnType<typeof premiumSchema>>

type TabValue = 'basic' | 'pricing' | 'marketing'

const fieldTabs: Record<keyof PremiumFormValues, TabValue> = {
  name: 'basic',
  extension: 'basic',
  category: 'basic',
  isAvailable: 'basic',
  price: 'pricing',
  discountPercentage: 'pricing',
  discountValidUntil: 'pricing',
  featured: 'marketing',
  description: 'marketing',
  keywords: 'marketing',
}

function formValuesOf(domain: AdminPremiumDomain | null): PremiumFormValues {
  if (!domain) {
    return {
      name: '',
      extension: defaultExtension,
      category: 'general',
      isAvailable: true,
      price: '50',
      discountPercentage: '0',
      discountValidUntil: '',
      featured: false,
      description: '',
      keywords: '',
    }
  }
  return {
    name: domain.name,
    extension: domain.extension,
    category: domain.category || 'general',
    isAvailable: domain.isAvailable,
    price: String(domain.price),
    discountPercentage: String(domain.discountPercentage ?? 0),
    discountValidUntil: dayOf(domain.discountValidUntil),
    featured: domain.featured,
    description: domain.description ?? '',
    keywords: (domain.keywords ?? []).join(', '),
  }
}

function inputOf(values: PremiumFormValues, original: AdminPremiumDomain | null): PremiumDomainInput {
  const input: PremiumDomainInput = {
    name: values.name.trim().toLowerCase(),
    extension: values.extension,
    price: Number(values.price),
    isAvailable: values.isAvailable,
    discountPercentage: Number(values.discountPercentage),
    featured: values.featured,
    description: values.description.trim(),
    category: values.category,
    keywords: splitKeywords(values.keywords),
  }
  // The end date is sent only when it changed: an unchanged, passed date stays as it is.
  if (original) {
    if (values.discountValidUntil !== dayOf(original.discountValidUntil)) {
      input.discountValidUntil = values.discountValidUntil
    }
  } else if (values.discountValidUntil) {
    input.discountValidUntil = values.discountValidUntil
  }
  return input
}

/**
 * The add dialog (domain null) and the edit dialog, with the tabs Basic Info,
 * Pricing and Marketing. Invalid fields bring their tab to the front.
 */
export function PremiumDomainDialog({
  open,
  onOpenChange,
  domain,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  domain: AdminPremiumDomain | null
}) {
  const editing = domain !== null
  const queryClient = useQueryClient()
  const { extensions } = useExtensions()
  const [tab, setTab] = useState<TabValue>('basic')
  const originalDay = dayOf(domain?.discountValidUntil)
  const form = useForm<PremiumFormValues>({
    resolver: zodResolver(premiumSchema(originalDay)),
    defaultValues: formValuesOf(domain),
  })
  const { errors } = form.formState

  useEffect(() => {
    if (open) {
      form.reset(formValuesOf(domain))
      setTab('basic')
    }
  }, [open, domain, form])

  const save = useMutation({
    mutationFn: (input: PremiumDomainInput) =>
      domain ? updatePremiumDomain(domain.id, input) : createPremiumDomain(input),
    onSuccess: async () => {
      if (!editing) toast({ title: 'Success', description: 'Premium domain added successfully' })
      onOpenChange(false)
      await queryClient.invalidateQueries({ queryKey: premiumDomainsKey })
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? (editing ? 'Failed to update premium domain' : 'Failed to add premium domain'),
        variant: 'destructive',
      })
    },
  })

  const onInvalid = (fieldErrors: FieldErrors<PremiumFormValues>) => {
    const first = (Object.keys(fieldTabs) as Array<keyof PremiumFormValues>).find((key) => fieldErrors[key])
    if (first) setTab(fieldTabs[first])
  }
  const submit = form.handleSubmit((values) => save.mutate(inputOf(values, domain)), onInvalid)

  const extensionOptions = extensions.map((e) => e.extension)
  if (domain && !extensionOptions.includes(domain.extension)) extensionOptions.push(domain.extension)
  const price = Number(form.watch('price'))
  const discount = Number(form.watch('discountPercentage'))
  const showDiscounted = Number.isFinite(price) && price > 0 && discount > 0 && discount <= 100

  const tabError = (value: TabValue) =>
    (Object.keys(fieldTabs) as Array<keyof PremiumFormValues>).some((key) => fieldTabs[key] === value && errors[key])

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent wide>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Premium Domain' : 'Add Premium Domain'}</DialogTitle>
          <DialogDescription>
            {editing
              ? `Change ${domain.name}${domain.extension}.`
              : 'A premium name is sold at its own price instead of the regular $8 per year.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} aria-label={editing ? 'Edit premium domain' : 'Add premium domain'}>
          <Tabs value={tab} onValueChange={(value) => setTab(value as TabValue)} className="mt-5">
            <TabsList className="grid w-full grid-cols-3">
              {(
                [
                  ['basic', 'Basic Info'],
                  ['pricing', 'Pricing'],
                  ['marketing', 'Marketing'],
                ] as const
              ).map(([value, label]) => (
                <TabsTrigger key={value} value={value} className="justify-center px-2">
                  {label}
                  {tabError(value) && <span className="h-1.5 w-1.5 rounded-full bg-red-500" aria-label="has errors" />}
                </TabsTrigger>
              ))}
            </TabsList>

            <TabsContent value="basic" className="mt-5 space-y-4">
              <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
                <Field label="Domain name" error={errors.name?.message} hint="Without the extension, e.g. cloud">
                  {(ids) => <Input {...ids} autoComplete="off" placeholder="cloud" {...form.register('name')} />}
                </Field>
                <Field label="Extension" error={errors.extension?.message}>
                  {(ids) => (
                    <Select {...ids} {...form.register('extension')}>
                      {extensionOptions.map((extension) => (
                        <option key={extension} value={extension}>
                          {extension}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
              </div>
              <Field label="Category">
                {(ids) => (
                  <Select {...ids} {...form.register('category')}>
                    {premiumCategories.map((category) => (
                      <option key={category} value={category}>
                        {capitalise(category)}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                  {...form.register('isAvailable')}
                />
                <span>
                  <span className="block text-sm font-medium text-slate-900">Available for registration</span>
                  <span className="block text-xs text-slate-500">Unticked, the name is shown as Reserved.</span>
                </span>
              </label>
            </TabsContent>

            <TabsContent value="pricing" className="mt-5 space-y-4">
              <Field
                label="Price (USD per year)"
                error={errors.price?.message}
                hint="Between $10 and $10,000. Premium names should cost more than regular domains at $8."
              >
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    inputMode="decimal"
                    min={MIN_PRICE}
                    max={MAX_PRICE}
                    step="0.01"
                    {...form.register('price')}
                  />
                )}
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Discount (%)" error={errors.discountPercentage?.message}>
                  {(ids) => (
                    <Input
                      {...ids}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={100}
                      step={1}
                      {...form.register('discountPercentage')}
                    />
                  )}
                </Field>
                <Field
                  label="Discount valid until"
                  error={errors.discountValidUntil?.message}
                  hint="Optional; leave empty for no end date."
                >
                  {(ids) => <Input {...ids} type="date" min={localDay()} {...form.register('discountValidUntil')} />}
                </Field>
              </div>
              {showDiscounted && (
                <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
                  Discounted price: <strong>{formatUsd(discountedPrice(price, discount))}</strong> per year
                </p>
              )}
            </TabsContent>

            <TabsContent value="marketing" className="mt-5 space-y-4">
              <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-3">
                <input
                  type="checkbox"
                  className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                  {...form.register('featured')}
                />
                <span>
                  <span className="block text-sm font-medium text-slate-900">Featured</span>
                  <span className="block text-xs text-slate-500">Featured names are listed first.</span>
                </span>
              </label>
              <Field label="Description">
                {(ids) => <Textarea {...ids} rows={3} {...form.register('description')} />}
              </Field>
              <Field label="Keywords" hint="Comma separated, e.g. cloud, hosting, saas">
                {(ids) => <Input {...ids} autoComplete="off" {...form.register('keywords')} />}
              </Field>
            </TabsContent>
          </Tabs>

          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Domain'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
