import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import { cx } from '@/lib/classNames'

const controlStyles =
  'block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm transition placeholder:text-slate-400 focus:outline-none focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-50 read-only:bg-slate-50'

function controlState(invalid: boolean) {
  return invalid
    ? 'border-red-400 focus:border-red-500 focus:ring-red-200'
    : 'border-slate-300 focus:border-brand-500 focus:ring-brand-200'
}

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }>(
  function Input({ className, invalid = false, ...props }, ref) {
    return (
      <input
        ref={ref}
        aria-invalid={invalid || undefined}
        className={cx(controlStyles, 'h-10', controlState(invalid), className)}
        {...props}
      />
    )
  },
)

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean }>(
  function Select({ className, invalid = false, ...props }, ref) {
    return (
      <select
        ref={ref}
        aria-invalid={invalid || undefined}
        className={cx(controlStyles, 'h-10 pr-8', controlState(invalid), className)}
        {...props}
      />
    )
  },
)

export const Textarea = forwardRef<
  HTMLTextAreaElement,
  TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean }
>(function Textarea({ className, invalid = false, ...props }, ref) {
  return (
    <textarea
      ref={ref}
      aria-invalid={invalid || undefined}
      className={cx(controlStyles, 'py-2', controlState(invalid), className)}
      {...props}
    />
  )
})

/**
 * A labelled form control with its validation message. The render prop gets
 * the ids that tie label, control and message together for screen readers.
 */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: ReactNode
  error?: string
  hint?: ReactNode
  children: (ids: { id: string; 'aria-describedby'?: string; invalid: boolean }) => ReactNode
  className?: string
}) {
  const id = useId()
  const messageId = `${id}-message`
  const hintId = `${id}-hint`
  const describedBy = [error ? messageId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={cx('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={messageId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
