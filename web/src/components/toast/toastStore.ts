import { useSyncExternalStore, type ReactNode } from 'react'

/**
 * A small toast store in the shape of shadcn/ui's use-toast: one toast at a
 * time (a new toast replaces the current one) and a dismissed toast is
 * removed from memory after 1,000,000 ms, the spec's numbers.
 */
export const TOAST_LIMIT = 1
export const TOAST_REMOVE_DELAY = 1_000_000

export type ToastVariant = 'default' | 'destructive'

export interface ToastInput {
  title?: ReactNode
  description?: ReactNode
  variant?: ToastVariant
}

export interface ToastItem extends ToastInput {
  id: string
  open: boolean
}

type State = { toasts: ToastItem[] }

let count = 0
let state: State = { toasts: [] }
const listeners = new Set<(state: State) => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()

function setState(next: State) {
  state = next
  listeners.forEach((listener) => listener(state))
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id)
      setState({ toasts: state.toasts.filter((t) => t.id !== id) })
    }, TOAST_REMOVE_DELAY),
  )
}

/** Closes one toast, or all of them when no id is given. */
export function dismissToast(id?: string) {
  state.toasts.forEach((t) => {
    if (id === undefined || t.id === id) scheduleRemoval(t.id)
  })
  setState({
    toasts: state.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)),
  })
}

/** Shows a toast; it replaces whatever toast is showing. */
export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  const id = String(count)
  setState({ toasts: [{ ...input, id, open: true }, ...state.toasts].slice(0, TOAST_LIMIT) })
  return { id, dismiss: () => dismissToast(id) }
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/**
 * The toasts showing. Through useSyncExternalStore, not a state copied at
 * render and a listener added in an effect: a toast shown between the two
 * (a Toaster mounting while a request finishes) was lost.
 */
export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => state).toasts
}

/** Test hook: forget every toast. */
export function resetToasts() {
  removeTimers.forEach((timer) => clearTimeout(timer))
  removeTimers.clear()
  setState({ toasts: [] })
}
