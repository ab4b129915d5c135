/**
 * A return address taken from the query (?redirect=, ?return=): only a path
 * on this site, starting with one '/'. Anything else (another origin, a
 * protocol-relative '//host', a backslash browsers read as a slash, control
 * characters) gives undefined, so the caller falls back to its default.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined
  if (value.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(value)) return undefined
  return value
}

/** The landing page searching a name, the place to come back to for registering it. */
export function landingSearchPath(name: string, extension: string): string {
  return `/?${new URLSearchParams({ name, extension })}`
}

/**
 * A search param read as text. The router reads '?name=123' as the number
 * 123 (and 'true' as a boolean), so those come back as their text; anything
 * else is dropped.
 */
export function textParam(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}
