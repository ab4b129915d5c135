import * as ToastPrimitive from '@radix-ui/react-toast'
import { X } from 'lucide-react'
import { cx } from '@/lib/classNames'
import { dismissToast, useToasts } from './toastStore'

/**
 * Radix toasts with the spec's defaults: 5000 ms, swipe right past 50 px, F8
 * focuses the region; bottom right on wide screens, top on narrow ones.
 */
export function Toaster() {
  const toasts = useToasts()
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, variant = 'default', open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismissToast(id)
          }}
          className={cx(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-9 shadow-lg',
            'data-[state=open]:animate-toast-in-top sm:data-[state=open]:animate-toast-in-bottom data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-swipe-out',
            variant === 'destructive'
              ? 'border-red-600 bg-red-600 text-white'
              : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="grid gap-1">
            {title && <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>}
            {description && (
              <ToastPrimitive.Description
                className={cx('text-sm', variant === 'destructive' ? 'text-red-50' : 'text-slate-600')}
              >
                {description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className={cx(
              'absolute right-2 top-2 rounded-md p-1 opacity-70 transition hover:opacity-100 focus:opacity-100 focus:outline-none focus:ring-2',
              variant === 'destructive' ? 'text-red-50 focus:ring-red-300' : 'text-slate-500 focus:ring-brand-500',
            )}
          >
            <X className="h-4 w-4" aria-hidden />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed top-16 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 outline-none sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  )
}
