import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** Whether sign-in asks for an authenticator code, and how many recovery codes are left. */
export type TwoFactorStatus = Schema<'TwoFactorStatusBody'>

/** A new authenticator secret: the QR code (a data URL), the secret as text and its otpauth URL. */
export type TotpSetup = Schema<'TotpSetupBody'>

/** One active session of the account. */
export type AccountSession = Schema<'SessionBody'>

const twoFactorPath = '/api/account/two-factor'
const sessionsPath = '/api/account/sessions'

/** GET /api/account/two-factor. */
export function twoFactorQueryOptions() {
  return queryOptions({ queryKey: [twoFactorPath], queryFn: getQueryFn<TwoFactorStatus>() })
}

/** GET /api/account/sessions: the most recently seen first. */
export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: [sessionsPath],
    queryFn: getQueryFn<AccountSession[] | null>(),
    select: (sessions) => sessions ?? [],
  })
}

/** POST /api/account/two-factor/totp: a new secret, pending until its first code confirms it. */
export async function beginTotp(): Promise<TotpSetup> {
  return unwrap(await apiRequest<ApiEnvelope<TotpSetup>>('POST', `${twoFactorPath}/totp`))
}

/** POST /api/account/two-factor/totp/confirm: turns two-factor sign-in on; the ten recovery codes, shown once. */
export async function confirmTotp(code: string): Promise<string[]> {
  const body = unwrap(
    await apiRequest<ApiEnvelope<Schema<'RecoveryCodesBody'>>>('POST', `${twoFactorPath}/totp/confirm`, { code }),
  )
  return body.recoveryCodes ?? []
}

/** POST /api/account/two-factor/disable, with the password or a code. */
export async function disableTwoFactor(input: { password?: string; code?: string }): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('POST', `${twoFactorPath}/disable`, input))
}

/** POST /api/account/two-factor/recovery-codes: ten new codes for an authenticator code. */
export async function regenerateRecoveryCodes(code: string): Promise<string[]> {
  const body = unwrap(
    await apiRequest<ApiEnvelope<Schema<'RecoveryCodesBody'>>>('POST', `${twoFactorPath}/recovery-codes`, { code }),
  )
  return body.recoveryCodes ?? []
}

/** DELETE /api/account/sessions/{id}. */
export async function endSession(id: string): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${sessionsPath}/${encodeURIComponent(id)}`))
}

/** POST /api/account/sessions/end-others: how many were signed out. */
export async function endOtherSessions(): Promise<number> {
  return unwrap(await apiRequest<ApiEnvelope<Schema<'EndedBody'>>>('POST', `${sessionsPath}/end-others`)).ended
}

export const accountSecurityKeys = { twoFactor: [twoFactorPath], sessions: [sessionsPath] } as const
