import * as z from 'zod/mini'
import { defaultExtension } from '@/lib/catalog'
import type { Rules } from '@/lib/rules'
import { dayOf, localDay, splitKeywords, type AdminPremiumDomain, type PremiumDomainInput } from '../api/premiumAdmin'

/** The server's bounds of a premium name (GET /api/rules). */
export type PremiumRules = Rules['premium']

const isNumber = (value: string) => value.trim() !== '' && Number.isFinite(Number(value))

/**
 * The form's schema, with the server's bounds (GET /api/rules) once known;
 * `originalDay` is the stored end date, which may stay even if it has passed.
 */
export function premiumSchema(originalDay: string, rules: PremiumRules | undefined) {
  const minPrice = rules?.minPrice ?? 0
  const maxPrice = rules?.maxPrice ?? Infinity
  const maxDiscount = rules?.maxDiscountPercent ?? 100
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
      z.refine((v) => !isNumber(v) || Number(v) >= minPrice, `Premium domain price must be at least ${minPrice}`),
      z.refine((v) => !isNumber(v) || Number(v) <= maxPrice, `Premium domain price must be at most ${maxPrice}`),
    ),
    discountPercentage: z.string().check(
      z.refine(
        (v) => isNumber(v) && Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= maxDiscount,
        `Discount must be a whole number between 0 and ${maxDiscount}`,
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

export type TabValue = 'basic' | 'pricing' | 'marketing'

export const fieldTabs: Record<keyof PremiumFormValues, TabValue> = {
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

export function formValuesOf(domain: AdminPremiumDomain | null): PremiumFormValues {
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

export function inputOf(values: PremiumFormValues, original: AdminPremiumDomain | null): PremiumDomainInput {
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
