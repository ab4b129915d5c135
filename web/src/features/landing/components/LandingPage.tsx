import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { ApiSection } from './ApiSection'
import { ContactSection } from './ContactSection'
import type { InitialSearch } from './DomainSearch'
import { DomainsSection } from './DomainsSection'
import { FeaturesSection } from './FeaturesSection'
import { Hero } from './Hero'
import { PricingSection } from './PricingSection'

export function LandingPage({ initialSearch }: { initialSearch?: InitialSearch } = {}) {
  useDocumentTitle('Domain registration and management')
  return (
    <>
      <Hero initialSearch={initialSearch} />
      <DomainsSection />
      <FeaturesSection />
      <PricingSection />
      <ApiSection />
      <ContactSection />
    </>
  )
}
