import { Globe2, Tag } from 'lucide-react'
import { useExtensions, type OfferedExtension, type LengthPriceRule } from '@/lib/catalog'
import { formatUsd } from '@/lib/format'
import { PremiumTeaser } from './PremiumTeaser'
import { Section } from './Section'

const countWords = ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten']

function headline(extensions: OfferedExtension[]) {
  const prices = extensions.flatMap((extension) => extension.basePrice ?? [])
  const count = countWords[extensions.length] ?? String(extensions.length)
  // Until the server's list (with its prices) arrives.
  if (prices.length === 0) {
    return { title: 'Our extensions', intro: 'Regular names come with DNS hosting included.' }
  }
  const lowest = Math.min(...prices)
  const samePrice = prices.every((price) => price === lowest)
  return {
    title: samePrice
      ? `${count} ${extensions.length === 1 ? 'extension' : 'extensions'}, one simple price`
      : `${count} extensions to choose from`,
    intro: samePrice
      ? `Every regular name costs ${formatPrice(lowest)} per year, with DNS hosting included.`
      : `Regular names from ${formatPrice(lowest)} per year, with DNS hosting included.`,
  }
}

/** Whole dollars without cents ("$8"), other amounts with them ("$7.50"). */
function formatPrice(amount: number) {
  return Number.isInteger(amount) ? `$${amount}` : formatUsd(amount)
}

/** A rule's lengths; one that runs to the longest name the extension takes is open-ended ("4+"). */
function lengthLabel(rule: LengthPriceRule, longest: number | undefined) {
  if (rule.minLength === rule.maxLength) return `${rule.minLength}-character names`
  if (longest !== undefined && rule.maxLength >= longest) return `Names of ${rule.minLength}+ characters`
  return `${rule.minLength}–${rule.maxLength} character names`
}

export function DomainsSection() {
  const { extensions } = useExtensions()
  const { title, intro } = headline(extensions)
  // The rules the server says set prices now, where they differ from the base price.
  const priced = (extension: OfferedExtension) =>
    (extension.lengthBasedPricing ?? [])
      .filter((rule) => rule.inForce && rule.price !== extension.basePrice)
      .sort((a, b) => a.minLength - b.minLength)
  const byLength = extensions.some((extension) => priced(extension).length > 0)
  return (
    <Section
      id="domains"
      eyebrow="Domains"
      title={title}
      intro={byLength ? `${intro} Some name lengths have their own price.` : intro}
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {extensions.map((extension) => {
          const rules = priced(extension)
          return (
            <li
              key={extension.extension}
              className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
                <Globe2 className="h-5 w-5" aria-hidden />
              </span>
              <p className="mt-4 break-all text-2xl font-bold text-slate-900">{extension.extension}</p>
              {extension.description && <p className="mt-2 text-sm text-slate-600">{extension.description}</p>}
              {extension.basePrice !== undefined && (
                <p className="mt-4 text-sm text-slate-600">
                  <span className="text-lg font-semibold text-slate-900">{formatPrice(extension.basePrice)}</span> per
                  year
                </p>
              )}
              {rules.length > 0 && (
                <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-xs text-slate-600">
                  {rules.map((rule) => (
                    <li key={`${rule.minLength}-${rule.maxLength}`} className="flex flex-wrap items-center gap-x-1.5">
                      {rule.isPromotion && <Tag className="h-3 w-3 text-emerald-600" aria-hidden />}
                      <span>{lengthLabel(rule, extension.maxNameLength)}:</span>
                      <span className="font-semibold text-slate-900">{formatUsd(rule.price)}</span>
                      {rule.isPromotion && rule.promotionLabel && (
                        <span className="font-medium text-emerald-700">{rule.promotionLabel}</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          )
        })}
      </ul>
      <PremiumTeaser />
    </Section>
  )
}
