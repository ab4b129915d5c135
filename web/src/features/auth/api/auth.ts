import type { QueryClient } from '@tanstack/react-query'
import { apiRequest, ApiError, unwrap, type ApiEnvelope } from '@/lib/api'
import { currentUserQueryOptions, type RegistrarTier, type User } from '@/lib/session'
import type { Schema } from '@/lib/schemas'
import { getPasskey } from '@/lib/webauthn'

export type LoginInput = Required<Schema<'LoginInputBody'>>

/** What the sign-up form sends: every field, the account type and tier as the form offers them. */
export type RegisterInput = Required<Omit<Schema<'RegisterInputBody'>, 'userType' | 'tier'>> & {
  userType: 'user' | 'registrar'
  tier?: RegistrarTier
}

/**
 * The outcome of a login or registration: the user, a refusal with the
 * server's message (when it gave one), or an unexpected failure (network
 * down, server crash) that the screen reports generically.
 */
export type AuthOutcome =
  | { kind: 'ok'; user: User }
  | { kind: 'refused'; message: string | undefined }
  | { kind: 'unexpected' }
  | TwoFactorChallenge

/**
 * A right password of an account with two-factor sign-in: no session yet,
 * but a short-lived token for the second step and the methods it takes
 * (totp, recovery, passkey).
 */
export type TwoFactorChallenge = { kind: 'twoFactor'; pendingToken: string; methods: string[] }

/** What the second step sends. */
export type TwoFactorInput =
  | { pendingToken: string; method: string; code: string }
  | { pendingToken: string; method: 'passkey'; credential: Record<string, unknown> }

type PasskeyOptions = Schema<'PasskeyOptionsBody'>

async function authCall(path: string, body: unknown): Promise<AuthOutcome> {
  try {
    const envelope = await apiRequest<ApiEnvelope<User>>('POST', path, body)
    if (envelope?.success) return { kind: 'ok', user: envelope.data }
    return { kind: 'refused', message: envelope?.error }
  } catch (error) {
    // A 4xx is the server saying no (bad credentials, taken username,
    // throttled); a 5xx without a message, a network error or a bad body is unexpected.
    if (error instanceof ApiError && error.code === 'two_factor_required' && error.pendingToken) {
      return { kind: 'twoFactor', pendingToken: error.pendingToken, methods: error.methods ?? ['totp'] }
    }
    if (error instanceof ApiError && (error.error || error.status < 500)) {
      return { kind: 'refused', message: error.error }
    }
    return { kind: 'unexpected' }
  }
}

export function login(input: LoginInput): Promise<AuthOutcome> {
  return authCall('/api/auth/login', input)
}

/** POST /api/auth/login/two-factor: the second step of a login that answered twoFactor. */
export function finishTwoFactor(input: TwoFactorInput): Promise<AuthOutcome> {
  return authCall('/api/auth/login/two-factor', input)
}

/**
 * Signs in with a passkey alone: the server's options name no account; the
 * browser offers this site's passkeys and the one chosen names its account.
 * A failure inside the browser (cancelled, no passkey) is thrown, for the
 * screen to word.
 */
export async function passkeyLogin(): Promise<AuthOutcome> {
  const opts = unwrap(await apiRequest<ApiEnvelope<PasskeyOptions>>('POST', '/api/auth/passkey/options'))
  const credential = await getPasskey(opts.options)
  return authCall('/api/auth/passkey', { ceremonyToken: opts.ceremonyToken, credential })
}

/** The passkey step of a two-factor login: the account's passkeys, then the second step with the answer. */
export async function finishTwoFactorWithPasskey(pendingToken: string): Promise<AuthOutcome> {
  const opts = unwrap(
    await apiRequest<ApiEnvelope<PasskeyOptions>>('POST', '/api/auth/login/two-factor/passkey-options', {
      pendingToken,
    }),
  )
  const credential = await getPasskey(opts.options)
  return finishTwoFactor({ pendingToken, method: 'passkey', credential })
}

export function register(input: RegisterInput): Promise<AuthOutcome> {
  const { tier, ...rest } = input
  return authCall('/api/auth/register', input.userType === 'registrar' && tier ? { ...rest, tier } : rest)
}

export async function logout(): Promise<void> {
  await apiRequest('POST', '/api/auth/logout')
}

/**
 * Re-reads the current user after the session changed, so the header and the
 * guards see the new session. Falls back to the user the server just returned
 * when the re-read itself fails.
 */
export async function refreshCurrentUser(queryClient: QueryClient, fallback: User): Promise<User | null> {
  const options = currentUserQueryOptions()
  try {
    return await queryClient.fetchQuery({ ...options, staleTime: 0 })
  } catch {
    queryClient.setQueryData(options.queryKey, fallback)
    return fallback
  }
}
