import { apiRequest, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

export type ChangePasswordInput = Required<Schema<'ChangePasswordInputBody'>>

/**
 * POST /api/auth/change-password. The server ends the account's other
 * sessions; this one stays logged in.
 */
export function changePassword(input: ChangePasswordInput) {
  return apiRequest<ApiEnvelope<unknown>>('POST', '/api/auth/change-password', input)
}
