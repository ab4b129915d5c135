import { serverMessage } from '@/lib/api'

/** A toast's text for a failed call: the server's message, else the spec's fallback. */
export function errorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}

/** A relative record name as a full name: "@" is the domain itself, "www" is www.<domain>. */
export function fullName(name: string, apex: string): string {
  return name === '@' ? apex : `${name}.${apex}`
}

/** Offers text to the browser as a file download. */
export function saveTextFile(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // Revoked a little later: some browsers read the blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
