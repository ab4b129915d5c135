import { Globe2 } from 'lucide-react'
import { extensions, regularDomainPrice } from '@/lib/extensions'
import { PremiumTeaser } from './PremiumTeaser'
import { Section } from './Section'

const extensionNotes: Record<(typeof extensions)[number], string> = {
  '.inf.nz': 'For information sites, projects and personal pages.',
  '.biz.ee': 'For businesses, shops and services.',
  '.orgn.uk': 'For organisations, clubs and communities.',
}

export function DomainsSection() {
  return (
    <Section
      id="domains"
      eyebrow="Domains"
      title="Three extensions, one simple price"
      intro={`Every regular name costs $${regularDomainPrice} per year, with DNS hosting included.`}
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {extensions.map((extension) => (
          <li key={extension} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
              <Globe2 className="h-5 w-5" aria-hidden />
            </span>
            <p className="mt-4 text-2xl font-bold text-slate-900">{extension}</p>
            <p className="mt-2 text-sm text-slate-600">{extensionNotes[extension]}</p>
            <p className="mt-4 text-sm text-slate-600">
              <span className="text-lg font-semibold text-slate-900">${regularDomainPrice}</span> per year
            </p>
          </li>
        ))}
      </ul>
      <PremiumTeaser />
    </Section>
  )
}
