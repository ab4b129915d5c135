import { Link } from '@tanstack/react-router'
import { Check, Crown } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { cx } from '@/lib/classNames'
import { useExtensions } from '@/lib/catalog'
import { premiumDiscountLabel, useRegistrarTiers, type RegistrarTierInfo } from '@/lib/registrarTiers'
import type { RegistrarTier } from '@/lib/session'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { Section } from './Section'

type Plan = {
  name: string
  audience: string
  /** Dollars per domain per year; undefined while the server's figures load. */
  price: number | undefined
  /** "from" when extensions differ in price. */
  pricePrefix?: string
  unit: string
  features: string[]
  cta: string
  tier?: RegistrarTierInfo
  highlighted?: boolean
}

const ctaOf: Record<string, string> = { enterprise: 'Contact Sales' }

/** The end-user plan and the server's registrar tiers (spec section 6), with the server's prices. */
function usePlans(): Plan[] {
  const { extensions, fromServer } = useExtensions()
  const { tiers } = useRegistrarTiers()
  const prices = fromServer ? extensions.flatMap((extension) => extension.basePrice ?? []) : []
  const lowest = prices.length > 0 ? Math.min(...prices) : undefined
  return [
    {
      name: 'End User',
      audience: 'For personal projects, businesses and organisations',
      price: lowest,
      pricePrefix: prices.some((price) => price !== lowest) ? 'from' : undefined,
      unit: 'per domain per year',
      features: [
        '.inf.nz, .biz.ee and .orgn.uk domains',
        'DNS management',
        'Email forwarding',
        'Domain forwarding',
        'Prepaid wallet',
      ],
      cta: 'Register Now',
    },
    ...tiers.map((tier) => ({
      name: tier.name,
      audience: 'Registrar partner',
      price: tier.pricePerDomain,
      unit: 'per domain per year',
      features: tier.features,
      cta: ctaOf[tier.key] ?? 'Apply Now',
      tier,
      // The middle tier is the one most partners pick.
      highlighted: tiers.length > 2 && tier === tiers[1],
    })),
  ]
}

export function PricingSection() {
  const plans = usePlans()
  return (
    <Section
      id="pricing"
      eyebrow="Pricing"
      title="Registrar partnership"
      help={<HelpTooltip topic="pricing" userAction="comparing prices" align="end" />}
      intro="Register domains for yourself at the regular price, or resell them as a partner with wholesale pricing."
    >
      <ul className="grid gap-6 md:grid-cols-2 xl:grid-cols-4">
        {plans.map((plan) => (
          <li
            key={plan.name}
            className={cx(
              'relative flex flex-col rounded-2xl bg-white p-6 shadow-sm',
              plan.highlighted ? 'ring-2 ring-brand-600' : 'ring-1 ring-slate-200',
            )}
          >
            <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>
            <p className="mt-1 text-sm text-slate-500">{plan.audience}</p>
            <p className="mt-6 flex items-baseline gap-1.5">
              {plan.pricePrefix && <span className="text-sm text-slate-500">{plan.pricePrefix}</span>}
              <span className="text-4xl font-bold tracking-tight text-slate-900">
                {plan.price === undefined ? '…' : `$${plan.price}`}
              </span>
              <span className="text-sm text-slate-500">{plan.unit}</span>
            </p>
            {plan.tier && (
              <p
                className={cx(
                  'mt-4 inline-flex items-center gap-1.5 self-start rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset',
                  plan.tier.premiumDiscountPercent > 0
                    ? 'bg-amber-50 text-amber-800 ring-amber-200'
                    : 'bg-slate-50 text-slate-600 ring-slate-200',
                )}
              >
                <Crown className="h-3.5 w-3.5" aria-hidden />
                {premiumDiscountLabel(plan.tier)}
              </p>
            )}
            <ul className="mt-6 flex-1 space-y-3 text-sm text-slate-700">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Check className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" aria-hidden />
                  {feature}
                </li>
              ))}
            </ul>
            <Link
              to="/register"
              search={plan.tier ? { type: 'registrar', tier: plan.tier.key as RegistrarTier } : {}}
              className={buttonStyles({ variant: plan.highlighted ? 'primary' : 'outline', className: 'mt-8 w-full' })}
            >
              {plan.cta}
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  )
}
