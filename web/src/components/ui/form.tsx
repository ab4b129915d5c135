import {
  forwardRef,
  useEffect,
  useId,
  useRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react'
import { useForm, type DefaultValues, type FieldValues, type Path, type PathValue } from 'react-hook-form'
import { Search } from 'lucide-react'
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

/**
 * An amount in US dollars: a number input with a "$" in front. `size` 'lg'
 * is the wallet's big deposit field.
 */
export const MoneyInput = forwardRef<
  HTMLInputElement,
  Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> & { invalid?: boolean; size?: 'md' | 'lg' }
>(function MoneyInput({ className, invalid = false, size = 'md', ...props }, ref) {
  return (
    <div className={cx('relative', className)}>
      <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">$</span>
      <Input
        ref={ref}
        type="number"
        inputMode="decimal"
        step="0.01"
        invalid={invalid}
        className={cx('pl-7', size === 'lg' ? 'h-12 text-lg font-semibold' : 'h-11')}
        {...props}
      />
    </div>
  )
})

/** A search box: a search input with a magnifier in front. */
export const SearchInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function SearchInput(
  { className, ...props },
  ref,
) {
  return (
    <div className={cx('relative', className)}>
      <Search
        className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
        aria-hidden
      />
      <Input ref={ref} type="search" autoComplete="off" spellCheck={false} className="pl-9" {...props} />
    </div>
  )
})

/**
 * A form whose fields apply as they change (list filters): every edit is
 * handed to onChange at once (with the field's name), and a field follows
 * `values` when its value there changes elsewhere (the address, a Reset
 * button). Fields in `defaults` only start from them: their owner sets them.
 */
export function useLiveForm<T extends FieldValues>({
  values,
  defaults,
  onChange,
}: {
  values: Partial<T>
  defaults?: Partial<T>
  onChange: (values: T, name: string) => void
}) {
  const form = useForm<T>({ defaultValues: { ...defaults, ...values } as DefaultValues<T> })
  const latest = useRef(onChange)
  latest.current = onChange
  useEffect(() => {
    const subscription = form.watch((next, { name }) => {
      if (name) latest.current(next as T, name)
    })
    return () => subscription.unsubscribe()
  }, [form])
  const previous = useRef(values)
  useEffect(() => {
    for (const key of Object.keys(values) as Array<Path<T>>) {
      const value = values[key as keyof T]
      if (value !== previous.current[key as keyof T] && value !== form.getValues(key)) {
        form.setValue(key, value as PathValue<T, Path<T>>)
      }
    }
    previous.current = values
  })
  return form
}
