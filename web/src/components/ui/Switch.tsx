import { cx } from '@/lib/classNames'

/** An on/off switch (role="switch"): for a setting that takes effect at once, without a Save. */
export function Switch({
  checked,
  label,
  disabled,
  onChange,
}: {
  checked: boolean
  /** What the switch turns on, for screen readers: "Enable …". */
  label: string
  disabled?: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cx(
        'relative h-6 w-11 shrink-0 rounded-full transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60',
        checked ? 'bg-emerald-500' : 'bg-slate-300',
      )}
    >
      <span
        aria-hidden
        className={cx(
          'absolute left-0.5 top-0.5 h-5 w-5 rounded-full bg-white shadow transition',
          checked && 'translate-x-5',
        )}
      />
    </button>
  )
}
