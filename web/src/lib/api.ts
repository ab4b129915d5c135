import type { QueryFunction } from '@tanstack/react-query'

/** The envelope every /api endpoint answers with. */
export type ApiEnvelope<T> = { success: true; data: T } | { success: false; error?: string }

/** A wallet that could not pay (402 insufficient_funds), as the server counts it, in cents. */
export type Shortfall = { neededCents: number; balanceCents: number }

/**
 * A non-OK HTTP response. The message follows the spec's general error
 * format, `${status}: ${body text or status text}`; `error` holds the
 * envelope's human message when the body was JSON and carried one, `code`
 * its machine-readable code, `shortfall` the numbers of a 402
 * insufficient_funds (the envelope's `needed` and `balance`, in dollars),
 * and `setTtl` the TTL of a DNS record's set that the record's TTL differs
 * from (a 422 the record dialog offers to resolve).
 */
export class ApiError extends Error {
  readonly status: number
  readonly error: string | undefined
  readonly code: string | undefined
  readonly shortfall: Shortfall | undefined
  readonly setTtl: number | undefined
  /** The body field an invalid request's message is about (e.g. content), for a form to show it there. */
  readonly field: string | undefined
  /** A login that needs a second factor (code two_factor_required): the token and methods of its second step. */
  readonly pendingToken: string | undefined
  readonly methods: string[] | undefined

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`)
    this.name = 'ApiError'
    this.status = status
    const envelope = envelopeOf(bodyText)
    this.error = typeof envelope.error === 'string' ? envelope.error : undefined
    this.code = typeof envelope.code === 'string' ? envelope.code : undefined
    this.shortfall =
      typeof envelope.needed === 'number' && typeof envelope.balance === 'number'
        ? { neededCents: Math.round(envelope.needed * 100), balanceCents: Math.round(envelope.balance * 100) }
        : undefined
    this.setTtl = typeof envelope.setTtl === 'number' ? envelope.setTtl : undefined
    this.field = typeof envelope.field === 'string' ? envelope.field : undefined
    this.pendingToken = typeof envelope.pendingToken === 'string' ? envelope.pendingToken : undefined
    this.methods = Array.isArray(envelope.methods) ? envelope.methods.map(String) : undefined
  }
}

function envelopeOf(bodyText: string): Record<string, unknown> {
  if (!bodyText) return {}
  try {
    const parsed: unknown = JSON.parse(bodyText)
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>
  } catch {
    // Not JSON (a proxy error page, for example): there is no envelope.
  }
  return {}
}

/** The envelope's human message when the error came from the server, else undefined. */
export function serverMessage(error: unknown): string | undefined {
  return error instanceof ApiError ? error.error : undefined
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return
  const bodyText = await res.text()
  throw new ApiError(res.status, res.statusText, bodyText)
}

async function parseJson<T>(res: Response): Promise<T> {
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

/**
 * The one request helper: sends cookies, sends a JSON body only when one is
 * given and the method is not GET, throws ApiError on a non-OK response and
 * returns the parsed JSON (the envelope, for /api endpoints). `headers` adds
 * request headers (an Idempotency-Key, for example).
 */
export async function apiRequest<T = ApiEnvelope<unknown>>(
  method: string,
  url: string,
  body?: unknown,
  options: { headers?: Record<string, string> } = {},
): Promise<T> {
  const sendsBody = body !== undefined && method.toUpperCase() !== 'GET'
  const headers: Record<string, string> = { ...options.headers }
  if (sendsBody) headers['Content-Type'] = 'application/json'
  const res = await fetch(url, {
    method,
    credentials: 'include',
    headers: Object.keys(headers).length > 0 ? headers : undefined,
    body: sendsBody ? JSON.stringify(body) : undefined,
  })
  await throwIfNotOk(res)
  return parseJson<T>(res)
}

/** Returns the envelope's data, or throws when the server answered success false. */
export function unwrap<T>(envelope: ApiEnvelope<T>): T {
  if (envelope && envelope.success) return envelope.data
  throw new Error(envelope?.error || 'The server did not complete the request')
}

type On401 = 'returnNull' | 'throw'

/**
 * The default query function: GETs the first element of the query key as the
 * URL and returns the envelope's data. A 401 throws unless told to yield null
 * (the current-user query uses that to mean "nobody is logged in").
 */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>
export function getQueryFn<T>(options?: { on401: 'throw' }): QueryFunction<T>
export function getQueryFn<T>({ on401 }: { on401: On401 } = { on401: 'throw' }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(String(queryKey[0]), { credentials: 'include', signal })
    if (on401 === 'returnNull' && res.status === 401) return null
    await throwIfNotOk(res)
    return unwrap(await parseJson<ApiEnvelope<T>>(res))
  }
}
