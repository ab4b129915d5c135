import type { RegistrarTier } from './session'

/** The registrar partnership tiers of spec section 6: wholesale price per domain per year. */
export const registrarTiers: Record<RegistrarTier, { name: string; pricePerDomain: number; allowance: string }> = {
  basic: { name: 'Basic', pricePerDomain: 6, allowance: '100 domains monthly' },
  premium: { name: 'Premium', pricePerDomain: 5, allowance: '500 domains monthly' },
  enterprise: { name: 'Enterprise', pricePerDomain: 4, allowance: 'Unlimited domains' },
}

export const registrarTierKeys = ['basic', 'premium', 'enterprise'] as const satisfies readonly RegistrarTier[]
