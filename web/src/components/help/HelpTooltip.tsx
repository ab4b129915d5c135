import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { CircleHelp } from 'lucide-react'
import { Tooltip } from '@/components/ui/Tooltip'
import { cx } from '@/lib/classNames'
import { useHelp } from './HelpProvider'
import { basicHelpText, helpTopics, isHelpTopic, type HelpTopic } from './topics'

// The panel and the help texts are separate chunks, so pages with help icons
// (the landing page among them) only carry the icon and its tooltip.
const HelpPanel = lazy(() => import('./HelpPanel'))

/**
 * A help icon for one topic. Hovering or focusing it shows the topic's short
 * text; clicking opens a panel with that text, a 'Show More Details' button
 * that loads the detailed explanation once, and a follow-up question box.
 * Everything is generated in the browser. Hidden while help is switched off.
 */
export function HelpTooltip({
  topic,
  label,
  userAction,
  align = 'start',
  className,
  children,
}: {
  topic: HelpTopic | (string & {})
  /** Visible text next to the icon (e.g. 'Help'); icon only without it. */
  label?: string
  /** What the reader is doing here, passed along with the help request. */
  userAction?: string
  /** Which edge of the icon the panel lines up with on wide screens. */
  align?: 'start' | 'end'
  className?: string
  /** Notes about this particular screen, shown above the topic's text. */
  children?: ReactNode
}) {
  const { enabled } = useHelp()
  const title = isHelpTopic(topic) ? helpTopics[topic].title : 'Help'
  const panelId = useId()
  const root = useRef<HTMLSpanElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const [open, setOpen] = useState(false)
  // Once opened, the panel stays mounted (hidden when closed) so the loaded
  // explanation and the last answer survive closing and reopening.
  const [opened, setOpened] = useState(false)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      trigger.current?.focus()
    }
    const onPointer = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', onPointer)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', onPointer)
    }
  }, [open])

  if (!enabled) return null

  const close = () => {
    setOpen(false)
    trigger.current?.focus()
  }

  return (
    <span ref={root} className={cx('relative inline-flex', className)} data-help-topic={topic}>
      <Tooltip content={basicHelpText(topic)} disabled={open} wide>
        <button
          ref={trigger}
          type="button"
          aria-label={label ? `${label}: ${title}` : `Help: ${title}`}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => {
            setOpen((on) => !on)
            setOpened(true)
          }}
          className={cx(
            'inline-flex items-center gap-1 rounded-full text-brand-600 transition-colors hover:bg-brand-50 hover:text-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2',
            label ? 'px-2 py-1 text-sm font-medium' : 'h-8 w-8 justify-center',
            open && 'bg-brand-50',
          )}
        >
          <CircleHelp className={label ? 'h-4 w-4' : 'h-5 w-5'} aria-hidden />
          {label}
        </button>
      </Tooltip>
      {opened && (
        <div
          id={panelId}
          role="dialog"
          aria-label={`Help: ${title}`}
          hidden={!open}
          className={cx(
            // Full width under the header on phones; a card by the icon on wider screens.
            'fixed inset-x-4 top-20 z-50 max-h-[calc(100vh-6rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-4 text-left text-sm font-normal normal-case tracking-normal text-slate-700 shadow-xl',
            'sm:absolute sm:inset-x-auto sm:top-full sm:mt-2 sm:w-96 sm:max-h-[min(40rem,calc(100vh-8rem))]',
            align === 'end' ? 'sm:right-0' : 'sm:left-0',
          )}
        >
          <Suspense fallback={<p className="text-slate-500">{basicHelpText(topic)}</p>}>
            <HelpPanel topic={topic} title={title} userAction={userAction} onClose={close}>
              {children}
            </HelpPanel>
          </Suspense>
        </div>
      )}
    </span>
  )
}
