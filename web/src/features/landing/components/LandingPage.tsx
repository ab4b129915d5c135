import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { ApiSection } from './ApiSection'
import { ContactSection } from './ContactSection'
import { DomainsSection } from './DomainsSection'
import { FeaturesSection } from './FeaturesSection'
import { Hero } from './Hero'
import { PricingSection } from './PricingSection'

export function LandingPage() {
  useDocumentTitle('Domain registration and management')
  return (
    <>
      <Hero />
      <DomainsSection />
      <FeaturesSection />
      <PricingSection />
      <ApiSection />
      <ContactSection />
    </>
  )
}
