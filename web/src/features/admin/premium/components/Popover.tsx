import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { cx } from '@/lib/classNames'

/**
 * A small non-modal popover: a trigger button and a panel under it. Closes on
 * Escape (focus goes back to the trigger) and on a click outside. The panel
 * is a labelled dialog for screen readers.
 */
export function Popover({
  trigger,
  label,
  children,
  align = 'start',
  triggerClassName,
  panelClassName,
}: {
  trigger: ReactNode
  label: string
  children: ReactNode | ((close: () => void) => ReactNode)
  align?: 'start' | 'end'
  triggerClassName?: string
  panelClassName?: string
}) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false)
        button.current?.focus()
      }
    }
    const onDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', onDown)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', onDown)
    }
  }, [open])

  const close = () => setOpen(false)
  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-haspopup="dialog"
        onClick={() => setOpen((value) => !value)}
        className={triggerClassName}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={id}
          role="dialog"
          aria-label={label}
          className={cx(
            'absolute top-full z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-900/10',
            align === 'end' ? 'right-0' : 'left-0',
            panelClassName,
          )}
        >
          {typeof children === 'function' ? children(close) : children}
        </div>
      )}
    </div>
  )
}
