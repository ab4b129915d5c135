import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import type { User } from '@/lib/session'

/** By default nobody is logged in and the catalog is empty; tests override per case. */
export const server = setupServer(
  http.get('/api/auth/me', () => HttpResponse.json({ success: false, error: 'Not authenticated' }, { status: 401 })),
  http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: [] })),
)

export const endUser: User = {
  id: 1,
  username: 'alice',
  email: 'alice@example.com',
  fullName: 'Alice Example',
  userType: 'user',
}

export const registrar: User = {
  id: 2,
  username: 'regco',
  email: 'ops@regco.example',
  fullName: 'Reg Co',
  userType: 'registrar',
  tier: 'premium',
  apiKey: 'np_live_0123456789abcdef',
}
