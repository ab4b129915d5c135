import type { HTMLAttributes } from 'react'
import { Crown } from 'lucide-react'
import { cx } from '@/lib/classNames'

type Tone = 'neutral' | 'brand' | 'premium' | 'success' | 'muted'

const tones: Record<Tone, string> = {
  neutral: 'bg-slate-100 text-slate-700 ring-slate-200',
  brand: 'bg-brand-50 text-brand-700 ring-brand-200',
  premium: 'bg-amber-50 text-amber-800 ring-amber-200',
  success: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  muted: 'bg-slate-50 text-slate-500 ring-slate-200',
}

export function Badge({ tone = 'neutral', className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: Tone }) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        tones[tone],
        className,
      )}
      {...props}
    />
  )
}

/** The crowned Premium badge of a premium name (search results, the register step, the domain page). */
export function PremiumBadge({ className }: { className?: string }) {
  return (
    <Badge tone="premium" className={className}>
      <Crown className="h-3 w-3" aria-hidden />
      Premium
    </Badge>
  )
}
