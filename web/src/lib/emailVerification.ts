import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from './api'
import type { Schema } from './schemas'

/** Whether the logged-in account's email address is verified. */
export type EmailVerification = Schema<'EmailVerificationBody'>

export const EMAIL_VERIFICATION_URL = '/api/auth/email-verification'

/** The server's message for a link that is unknown, used or expired. */
export const invalidVerifyLinkMessage = 'This verification link is invalid or has expired. Ask for a new one.'

/** GET /api/auth/email-verification. */
export function emailVerificationQueryOptions() {
  return queryOptions({
    queryKey: [EMAIL_VERIFICATION_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<EmailVerification>>('GET', EMAIL_VERIFICATION_URL)),
  })
}

/** POST /api/auth/email-verification/resend: a new link by mail (throttled: 429). */
export function resendVerificationEmail() {
  return apiRequest<ApiEnvelope<unknown>>('POST', `${EMAIL_VERIFICATION_URL}/resend`)
}

/** POST /api/auth/verify-email with the token of the mailed link. */
export function verifyEmail(token: string) {
  return apiRequest<ApiEnvelope<unknown>>('POST', '/api/auth/verify-email', {
    token,
  } satisfies Schema<'VerifyEmailInputBody'>)
}
