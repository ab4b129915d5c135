import { serverMessage } from '@/lib/api'

/** A failed call's text: the server's message, else the app's general fallback. */
export function errorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}

const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
})

/** A log entry's time, such as "Mar 4, 2026, 10:05 AM" (the viewer's time zone); the raw text when it does not parse. */
export function formatDateTime(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : dateTime.format(date)
}

/** A message size: bytes below a kilobyte, then KB and MB with one decimal. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
