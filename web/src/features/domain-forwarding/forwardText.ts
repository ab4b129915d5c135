import { serverMessage } from '@/lib/api'
import { APEX_HOST } from './api/domainForwarding'

/** A failed call's text: the server's message, else the app's general fallback. */
export function errorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}

/** The full name of a host of apex: the domain itself for @. */
export function hostName(host: string, apex: string): string {
  return host === APEX_HOST ? apex : `${host}.${apex}`
}

/** The redirect statuses a forward may answer with, as the dialog offers them; 302 is the server's default. */
export const STATUS_OPTIONS = [
  { value: 301, label: '301 Permanent' },
  { value: 302, label: '302 Temporary (default)' },
  { value: 307, label: '307 Temporary, same method' },
  { value: 308, label: '308 Permanent, same method' },
] as const

export const DEFAULT_STATUS = 302

/** A status as the list shows it: "301 Permanent". */
export function statusLabel(status: number): string {
  if (status === 301 || status === 308) return `${status} Permanent`
  if (status === 302 || status === 307) return `${status} Temporary`
  return String(status)
}
