import type { UseFormReturn } from 'react-hook-form'
import { PremiumCategoryOptions } from '@/components/PremiumCategoryOptions'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { formatUsd } from '@/lib/format'
import { localDay } from '../api/premiumAdmin'
import type { PremiumFormValues, PremiumRules } from './premiumDomainForm'

/** The Basic Info tab: the name, its extension, category and availability. */
export function BasicFields({ form, extensionOptions }: { form: UseFormReturn<PremiumFormValues>; extensionOptions: string[] }) {
  const { errors } = form.formState
  return (
    <>
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
            <PremiumCategoryOptions />
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
    </>
  )
}

/** The Pricing tab: the yearly price and a discount, within the server's bounds. */
export function PricingFields({
  form,
  rules,
}: {
  form: UseFormReturn<PremiumFormValues>
  rules: PremiumRules | undefined
}) {
  const { errors } = form.formState
  return (
    <>
      <Field
        label="Price (USD per year)"
        error={errors.price?.message}
        hint={rules && `Between ${formatUsd(rules.minPrice)} and ${formatUsd(rules.maxPrice)}.`}
      >
        {(ids) => (
          <Input
            {...ids}
            type="number"
            inputMode="decimal"
            min={rules?.minPrice}
            max={rules?.maxPrice}
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
              max={rules?.maxDiscountPercent}
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
    </>
  )
}

/** The Marketing tab: featuring, the description and keywords. */
export function MarketingFields({ form }: { form: UseFormReturn<PremiumFormValues> }) {
  return (
    <>
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
    </>
  )
}
