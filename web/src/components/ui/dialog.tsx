import * as DialogPrimitive from '@radix-ui/react-dialog'
import { useState, type ComponentProps, type HTMLAttributes } from 'react'
import { X } from 'lucide-react'
import { cx } from '@/lib/classNames'

export const Dialog = DialogPrimitive.Root
export const DialogTrigger = DialogPrimitive.Trigger
export const DialogClose = DialogPrimitive.Close

/**
 * A centred modal card over a dimmed page; on phones it fills the width and
 * scrolls when taller than the screen. `hideClose` drops the corner X (while
 * the dialog must not be left, for example); `wide` gives it 42rem instead of 32rem.
 */
export function DialogContent({
  className,
  children,
  hideClose = false,
  wide = false,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { hideClose?: boolean; wide?: boolean }) {
  // Radix gives focus back to a DialogTrigger on close; most dialogs here are
  // opened by a plain button instead, so remember what had focus when the
  // dialog appeared and return there (otherwise focus falls to the page's start).
  const [opener] = useState(() => document.activeElement)
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-950/50 backdrop-blur-[2px] data-[state=open]:animate-fade-in" />
      <div className="pointer-events-none fixed inset-0 z-50 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPrimitive.Content
          className={cx(
            'pointer-events-auto relative max-h-[100dvh] w-full overflow-y-auto rounded-t-2xl bg-white p-5 shadow-2xl sm:p-6 ring-1 ring-slate-900/10 focus:outline-none',
            'sm:max-h-[calc(100dvh-2rem)] sm:rounded-2xl data-[state=open]:animate-dialog-in',
            wide ? 'sm:max-w-2xl' : 'sm:max-w-lg',
            className,
          )}
          onCloseAutoFocus={(event) => {
            onCloseAutoFocus?.(event)
            if (event.defaultPrevented || !(opener instanceof HTMLElement) || !opener.isConnected) return
            event.preventDefault()
            opener.focus()
          }}
          {...props}
        >
          {children}
          {!hideClose && (
            <DialogPrimitive.Close
              aria-label="Close"
              className="absolute right-4 top-4 rounded-md p-1 text-slate-500 transition hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <X className="h-4 w-4" aria-hidden />
            </DialogPrimitive.Close>
          )}
        </DialogPrimitive.Content>
      </div>
    </DialogPrimitive.Portal>
  )
}

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('space-y-1 pr-8', className)} {...props} />
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cx('text-lg font-semibold text-slate-900', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cx('text-sm text-slate-500', className)} {...props} />
}

export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cx('mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end', className)}
      {...props}
    />
  )
}
