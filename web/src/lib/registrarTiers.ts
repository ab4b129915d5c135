import { useRules } from './rules'
import type { Schema } from './schemas'
import type { RegistrarTier } from './session'

/** A registrar partnership tier as GET /api/rules publishes it (spec section 6). */
export type RegistrarTierInfo = Schema<'TierBody'>

/** The server's tiers, cheapest first (empty while they load), and a lookup by key. */
export function useRegistrarTiers(): {
  tiers: RegistrarTierInfo[]
  tierOf: (key: RegistrarTier | undefined) => RegistrarTierInfo | undefined
} {
  const tiers = useRules()?.registrarTiers ?? []
  return { tiers, tierOf: (key) => tiers.find((tier) => tier.key === key) }
}

/** '100 domains monthly', or 'Unlimited domains'. */
export function allowanceText(tier: RegistrarTierInfo): string {
  return tier.monthlyDomains == null ? 'Unlimited domains' : `${tier.monthlyDomains} domains monthly`
}

/** '10% off premium domains', or 'Standard premium pricing' without a discount. */
export function premiumDiscountLabel(tier: RegistrarTierInfo): string {
  const percent = tier.premiumDiscountPercent
  return percent > 0 ? `${percent}% off premium domains` : 'Standard premium pricing'
}
