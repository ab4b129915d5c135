import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { server } from '@/test/server'
import { apiRequest, ApiError, getQueryFn } from './api'

function queryContext(url: string) {
  return { queryKey: [url], signal: new AbortController().signal, meta: undefined, client: undefined } as never
}

describe('apiRequest', () => {
  it('formats a non-OK response as "status: body" and keeps the envelope error', async () => {
    server.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json({ success: false, error: 'Username is already taken' }, { status: 409 }),
      ),
    )
    const error = await apiRequest('POST', '/api/auth/register', { username: 'alice' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('409: {"success":false,"error":"Username is already taken"}')
    expect((error as ApiError).status).toBe(409)
    expect((error as ApiError).error).toBe('Username is already taken')
  })

  it('reads the code and the shortfall of a 402 envelope, in cents', async () => {
    server.use(
      http.post('/api/domains', () =>
        HttpResponse.json(
          { success: false, error: 'Insufficient funds', code: 'insufficient_funds', needed: 12.5, balance: 3.1 },
          { status: 402 },
        ),
      ),
    )
    const error = (await apiRequest('POST', '/api/domains', {}).catch((e: unknown) => e)) as ApiError
    expect(error.code).toBe('insufficient_funds')
    expect(error.shortfall).toEqual({ neededCents: 1250, balanceCents: 310 })
  })

  it('has no shortfall on other errors', async () => {
    server.use(
      http.post('/api/domains', () =>
        HttpResponse.json({ success: false, error: 'Taken', code: 'conflict' }, { status: 409 }),
      ),
    )
    const error = (await apiRequest('POST', '/api/domains', {}).catch((e: unknown) => e)) as ApiError
    expect(error.code).toBe('conflict')
    expect(error.shortfall).toBeUndefined()
    expect(error.setTtl).toBeUndefined()
  })

  it("reads the set's TTL of a DNS record refused for its TTL", async () => {
    server.use(
      http.post('/api/domains/7/dns', () =>
        HttpResponse.json(
          { success: false, error: 'Records of www A share one TTL (300 seconds)', code: 'invalid', setTtl: 300 },
          { status: 422 },
        ),
      ),
    )
    const error = (await apiRequest('POST', '/api/domains/7/dns', {}).catch((e: unknown) => e)) as ApiError
    expect(error.code).toBe('invalid')
    expect(error.setTtl).toBe(300)
  })

  it('uses the status text when the body is empty', async () => {
    server.use(
      http.get('/api/wallet', () => new HttpResponse(null, { status: 503, statusText: 'Service Unavailable' })),
    )
    const error = (await apiRequest('GET', '/api/wallet').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('503: Service Unavailable')
    expect(error.error).toBeUndefined()
  })

  it('has no envelope error when the body is not JSON', async () => {
    server.use(http.get('/api/wallet', () => new HttpResponse('Bad Gateway from proxy', { status: 502 })))
    const error = (await apiRequest('GET', '/api/wallet').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('502: Bad Gateway from proxy')
    expect(error.error).toBeUndefined()
  })

  it('sends a JSON body with cookies, and no body on GET', async () => {
    const seen: Array<{ method: string; contentType: string | null; body: string; credentials: RequestCredentials }> =
      []
    server.use(
      http.all('/api/echo', async ({ request }) => {
        seen.push({
          method: request.method,
          contentType: request.headers.get('content-type'),
          body: await request.text(),
          credentials: request.credentials,
        })
        return HttpResponse.json({ success: true, data: null })
      }),
    )
    await apiRequest('POST', '/api/echo', { a: 1 })
    await apiRequest('GET', '/api/echo', { ignored: true })
    expect(seen[0]).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: '{"a":1}',
      credentials: 'include',
    })
    expect(seen[1]).toMatchObject({ method: 'GET', contentType: null, body: '', credentials: 'include' })
  })
})

describe('getQueryFn', () => {
  it('returns the envelope data from the URL in the query key', async () => {
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 12.5, currency: 'USD' } })),
    )
    await expect(getQueryFn()(queryContext('/api/wallet'))).resolves.toEqual({ balance: 12.5, currency: 'USD' })
  })

  it('yields null on 401 only when asked to', async () => {
    server.use(
      http.get('/api/me', () => HttpResponse.json({ success: false, error: 'Not authenticated' }, { status: 401 })),
    )
    await expect(getQueryFn({ on401: 'returnNull' })(queryContext('/api/me'))).resolves.toBeNull()
    await expect(getQueryFn({ on401: 'throw' })(queryContext('/api/me'))).rejects.toThrow(
      '401: {"success":false,"error":"Not authenticated"}',
    )
  })
})
