import { apiRequest, type ApiEnvelope } from '@/lib/api'

export interface ChangePasswordInput {
  currentPassword: string
  newPassword: string
  confirmPassword: string
}

/**
 * POST /api/auth/change-password. The server ends the account's other
 * sessions; this one stays logged in.
 */
export function changePassword(input: ChangePasswordInput) {
  return apiRequest<ApiEnvelope<unknown>>('POST', '/api/auth/change-password', input)
}
