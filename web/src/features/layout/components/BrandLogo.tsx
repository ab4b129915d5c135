import { cx } from '@/lib/classNames'

/** The Nameport mark and word. */
export function BrandLogo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cx('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden>
        <rect width="32" height="32" rx="8" className={inverted ? 'fill-white' : 'fill-brand-600'} />
        <path
          d="M9 23V9h3.2l7.1 9.3V9H23v14h-3.1l-7.2-9.4V23z"
          className={inverted ? 'fill-brand-700' : 'fill-white'}
        />
      </svg>
      <span className={cx('text-lg', inverted ? 'text-white' : 'text-slate-900')}>Nameport</span>
    </span>
  )
}
