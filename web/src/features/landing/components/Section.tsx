import type { ReactNode } from 'react'
import { cx } from '@/lib/classNames'

/** A landing page section with its anchor id and heading. */
export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  className,
  help,
}: {
  id: string
  eyebrow: string
  title: string
  intro?: ReactNode
  children: ReactNode
  className?: string
  /** A help icon shown beside the heading. */
  help?: ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cx('py-20 sm:py-24', className)}>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">{eyebrow}</p>
          <div className="mt-2 flex items-center justify-center gap-2">
            <h2 id={`${id}-title`} className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
              {title}
            </h2>
            {help}
          </div>
          {intro && <p className="mt-4 text-lg text-slate-600">{intro}</p>}
        </div>
        <div className="mt-12">{children}</div>
      </div>
    </section>
  )
}
