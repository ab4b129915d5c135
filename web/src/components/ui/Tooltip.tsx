import { useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react'
import { cloneElement } from 'react'

const OPEN_DELAY_MS = 700

/**
 * A light tooltip for a single trigger: opens after 700 ms of hover, at once
 * on keyboard focus, closes on leave, blur or Escape. The trigger is described
 * by the tooltip text for screen readers.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const id = useId()
  const [open, setOpen] = useState(false)
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
    timer.current = setTimeout(() => setOpen(true), delay)
  }
  const hide = () => {
    clearTimeout(timer.current)
    setOpen(false)
  }

  return (
    <span className="relative inline-flex" onMouseEnter={() => show(OPEN_DELAY_MS)} onMouseLeave={hide}>
      {cloneElement(children, {
        'aria-describedby': id,
        onFocus: () => show(0),
        onBlur: hide,
      })}
      <span
        id={id}
        role="tooltip"
        hidden={!open}
        className="pointer-events-none absolute left-1/2 top-full z-50 mt-2 -translate-x-1/2 whitespace-nowrap rounded-md bg-slate-900 px-2.5 py-1.5 text-xs font-medium text-white shadow-lg"
      >
        {content}
      </span>
    </span>
  )
}
