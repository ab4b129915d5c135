import type { RegistrarTier } from './session'

export interface RegistrarTierInfo {
  name: string
  /** Wholesale price per regular domain per year, in dollars. */
  pricePerDomain: number
  allowance: string
  /** Percent off premium names at wholesale (the server's rule; 0 means standard premium pricing). */
  premiumDiscountPercent: number
}

/** The registrar partnership tiers of spec section 6, with the server's premium wholesale discounts. */
export const registrarTiers: Record<RegistrarTier, RegistrarTierInfo> = {
  basic: { name: 'Basic', pricePerDomain: 6, allowance: '100 domains monthly', premiumDiscountPercent: 0 },
  premium: { name: 'Premium', pricePerDomain: 5, allowance: '500 domains monthly', premiumDiscountPercent: 10 },
  enterprise: { name: 'Enterprise', pricePerDomain: 4, allowance: 'Unlimited domains', premiumDiscountPercent: 20 },
}

export const registrarTierKeys = ['basic', 'premium', 'enterprise'] as const satisfies readonly RegistrarTier[]

/** '10% off premium domains', or 'Standard premium pricing' without a discount. */
export function premiumDiscountLabel(tier: RegistrarTier): string {
  const percent = registrarTiers[tier].premiumDiscountPercent
  return percent > 0 ? `${percent}% off premium domains` : 'Standard premium pricing'
}
