import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react'
import { cloneElement } from 'react'
import { cx } from '@/lib/classNames'

const OPEN_DELAY_MS = 700
// Moving from one tooltip to the next within this time opens it at once.
const SKIP_DELAY_MS = 300
let lastClosedAt = -Infinity

/**
 * A light tooltip for a single trigger: opens after 700 ms of hover, at once
 * on keyboard focus, closes on leave, blur or Escape. The trigger is described
 * by the tooltip text for screen readers. Shown 8 px below the trigger.
 */
export function Tooltip({
  content,
  children,
  disabled = false,
  wide = false,
}: {
  content: ReactNode
  children: ReactElement
  /** Keeps the tooltip closed, e.g. while the trigger's own panel is open. */
  disabled?: boolean
  /** Wraps longer text at a readable width instead of one line. */
  wide?: boolean
}) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [edge, setEdge] = useState<'center' | 'start' | 'end'>('center')
  const anchor = useRef<HTMLSpanElement>(null)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)

  useEffect(() => () => clearTimeout(timer.current), [])
  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open])

  const show = (delay: number) => {
    clearTimeout(timer.current)
    // A wide tooltip near the side of a phone screen lines up with that side
    // of its trigger instead of sticking out of the screen.
    const rect = anchor.current?.getBoundingClientRect()
    if (wide && rect) {
      const middle = rect.left + rect.width / 2
      setEdge(middle < 136 ? 'start' : middle > window.innerWidth - 136 ? 'end' : 'center')
    }
    const skip = Date.now() - lastClosedAt < SKIP_DELAY_MS
    timer.current = setTimeout(() => setOpen(true), skip ? 0 : delay)
  }
  const hide = () => {
    clearTimeout(timer.current)
    if (open) lastClosedAt = Date.now()
    setOpen(false)
  }

  return (
    <span ref={anchor} className="relative inline-flex" onMouseEnter={() => show(OPEN_DELAY_MS)} onMouseLeave={hide}>
      {cloneElement(children, {
        'aria-describedby': id,
        onFocus: () => show(0),
        onBlur: hide,
      })}
      <span
        id={id}
        role="tooltip"
        hidden={!open || disabled}
        className={cx(
          'pointer-events-none absolute top-full z-50 mt-2 rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg',
          edge === 'start' ? 'left-0' : edge === 'end' ? 'right-0' : 'left-1/2 -translate-x-1/2',
          wide ? 'w-60 max-w-[calc(100vw-2rem)] whitespace-normal leading-snug' : 'whitespace-nowrap',
        )}
      >
        {content}
      </span>
    </span>
  )
}
