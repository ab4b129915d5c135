import { apiRequest, ApiError } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

export type ResetPasswordInput = Required<Schema<'ResetPasswordInputBody'>>

/** What the server says when a reset link is unknown, used or older than an hour. */
export const invalidResetLinkMessage = 'This reset link is invalid or has expired. Ask for a new one.'

/**
 * The outcome of a password reset call: done, refused with the server's
 * message (bad input, an invalid link, throttled), or an unexpected failure
 * (network down, server crash) that the screen reports generically.
 */
export type ResetOutcome = { kind: 'ok' } | { kind: 'refused'; message: string } | { kind: 'unexpected' }

async function resetCall(path: string, body: unknown): Promise<ResetOutcome> {
  try {
    await apiRequest('POST', path, body)
    return { kind: 'ok' }
  } catch (error) {
    if (error instanceof ApiError && error.error && error.status < 500) {
      return { kind: 'refused', message: error.error }
    }
    return { kind: 'unexpected' }
  }
}

/**
 * POST /api/auth/forgot-password: mails a reset link when an account has this
 * email. The server answers the same whether or not one has.
 */
export function requestPasswordReset(email: string): Promise<ResetOutcome> {
  return resetCall('/api/auth/forgot-password', { email } satisfies Schema<'ForgotPasswordInputBody'>)
}

/** POST /api/auth/reset-password: sets the new password; every session of the account ends. */
export function resetPassword(input: ResetPasswordInput): Promise<ResetOutcome> {
  return resetCall('/api/auth/reset-password', input)
}
