import { LoaderCircle } from 'lucide-react'
import { cx } from '@/lib/classNames'

/** A spinner with an accessible label (the visible text, when there is one, is given separately). */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <LoaderCircle role="status" aria-label={label} className={cx('h-5 w-5 animate-spin text-brand-600', className)} />
  )
}
