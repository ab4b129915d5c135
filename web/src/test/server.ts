import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import type { DomainExtension } from '@/lib/catalog'
import type { Rules } from '@/lib/rules'
import type { Schema } from '@/lib/schemas'
import type { User } from '@/lib/session'
import type { Site } from '@/lib/site'
// The server's own rules document, kept current by a Go test
// (internal/api TestWebRulesFixtureIsTheServers): tests read the server's values.
import serverRules from './fixtures/rules.json'

export const rules = serverRules as Rules

/** The public site of a server nobody has branded, as GET /api/site answers. */
export const site: Site = {
  name: 'Nameport',
  logoUrl: '/logo.svg',
  faviconUrl: '/favicon.ico',
  primaryColor: '#4f46e5',
  palette: { '600': '79 70 229' },
  tagline: 'Your trusted partner for domain registration and management.',
  contactEmail: '',
  contactPhone: '',
  contactAddress: '',
  social: [],
  seoTitle: 'Nameport · Domain registration and management',
  seoDescription: 'Nameport: register and manage domains.',
}

/** The server's three active extensions, as GET /api/domain-extensions lists them. */
export const serverExtensions: DomainExtension[] = [
  ['.biz.ee', 'Business names under .biz.ee.'],
  ['.inf.nz', 'Information sites under .inf.nz.'],
  ['.orgn.uk', 'Organisations under .orgn.uk.'],
].map(([extension, description], index) => ({
  id: index + 1,
  extension,
  basePrice: 8,
  description,
  active: true,
  minNameLength: 1,
  maxNameLength: 63,
  allowedCharacters: 'a-z0-9-',
  renewalPrice: 8,
  renewalPeriodDays: 365,
  gracePeriodDays: 30,
  lengthBasedPricing: [],
}))

/**
 * By default nobody is logged in, the three extensions are on sale, there
 * are no premium names and deposits run in demo mode; tests override per case.
 */
/** GET /api/auth/session answering with user() (null: a visitor). */
export function sessionAs(user: () => User | null) {
  return http.get('/api/auth/session', () => {
    const u = user()
    return HttpResponse.json({ success: true, data: u ? { signedIn: true, user: u } : { signedIn: false } })
  })
}

export const server = setupServer(
  sessionAs(() => null),
  http.get('/api/registrar/api-key', () => HttpResponse.json({ success: true, data: { apiKey: registrarApiKey } })),
  http.get('/api/registrar/keys', () => HttpResponse.json({ success: true, data: [registrarDefaultKey] })),
  http.get('/api/wallet/deposit-options', () =>
    HttpResponse.json({
      success: true,
      data: {
        mode: 'demo',
        methods: ['credit_card', 'paypal', 'bank_transfer', 'upi'],
        instant: ['credit_card', 'paypal', 'bank_transfer', 'upi'],
        bankTransfer: null,
        configuredBy: 'Demo payments are server configuration: --demo-payments (or --demo).',
        availableGateways: ['bank_transfer'],
      },
    }),
  ),
  http.get('/api/domain-extensions', () => HttpResponse.json({ success: true, data: serverExtensions })),
  http.get('/api/rules', () => HttpResponse.json({ success: true, data: rules })),
  http.get('/api/site', () => HttpResponse.json({ success: true, data: site })),
  http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: [] })),
  http.get('/api/auth/email-verification', () =>
    HttpResponse.json({ success: true, data: { email: 'alice@example.com', verified: true } }),
  ),
  // Account Settings: two-factor sign-in off, one session (this one).
  http.get('/api/account/two-factor', () =>
    HttpResponse.json({
      success: true,
      data: { on: false, totpEnabled: false, recoveryCodesLeft: 0, passkeys: 0, setupRequired: false },
    }),
  ),
  http.get('/api/account/sessions', () =>
    HttpResponse.json({
      success: true,
      data: [
        {
          id: '0123456789abcdef0123456789abcdef',
          createdAt: '2026-11-20T09:30:00Z',
          lastSeenAt: '2026-11-26T10:00:00Z',
          ipAddress: '192.0.2.1',
          browser: 'Chrome 131 on Linux',
          userAgent: 'Mozilla/5.0',
          current: true,
        },
      ],
    }),
  ),
  http.get('/api/registrar/tier-application', () =>
    HttpResponse.json({ success: true, data: { tier: 'premium', application: null } }),
  ),
  http.get('/api/registrar/allowance', () =>
    HttpResponse.json({
      success: true,
      data: {
        tier: 'premium',
        limit: 500,
        used: 37,
        remaining: 463,
        periodStart: '2026-11-01T00:00:00Z',
        resetsAt: '2026-12-01T00:00:00Z',
      },
    }),
  ),
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
}

/** The registrar's API key, as GET /api/registrar/api-key answers it. */
export const registrarApiKey = 'np_live_0123456789abcdef'

/** That key as GET /api/registrar/keys lists it: the Default key, every scope. */
export const registrarDefaultKey: Schema<'APIKey'> = {
  id: 1,
  name: 'Default',
  scopes: ['read', 'dns', 'register', 'wallet'],
  allowedAddresses: [],
  createdAt: '2026-01-15T09:30:00Z',
  primary: true,
}

/** Where a link sends a visitor back to after signing up: its ?redirect= (or another param). */
export function searchParamOf(link: HTMLElement, name = 'redirect'): string | null {
  return new URL(link.getAttribute('href') ?? '', 'http://nameport.test').searchParams.get(name)
}
