import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, ApiError, unwrap, type ApiEnvelope } from '@/lib/api'
import { currentUserQueryOptions, type User } from '@/lib/session'

const FALLBACK_MESSAGE = 'Failed to generate a new API key'

/**
 * POST /api/registrar/api-key: replaces the registrar's API key and answers
 * the new one. The old key stops working at once. 401 for a visitor, 403
 * for an account that is not a registrar.
 */
export async function regenerateApiKey(): Promise<string> {
  const envelope = await apiRequest<ApiEnvelope<{ apiKey: string }>>('POST', '/api/registrar/api-key')
  return unwrap(envelope).apiKey
}

/**
 * Generates a new API key. On success the cached current user (which holds
 * the key the dashboard shows) takes the new key at once and is then re-read.
 */
export function useRegenerateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: regenerateApiKey,
    onSuccess: (apiKey) => {
      const { queryKey } = currentUserQueryOptions()
      queryClient.setQueryData<User | null>(queryKey, (user) => (user ? { ...user, apiKey } : user))
      void queryClient.invalidateQueries({ queryKey })
    },
  })
}

/** What the error toast says: the server's message, a fallback, or 'An unexpected error occurred'. */
export function regenerateErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.error || FALLBACK_MESSAGE
  // unwrap's error for a 200 that said success false carries the server's message.
  if (error instanceof Error && !(error instanceof TypeError) && error.message) return error.message
  return 'An unexpected error occurred'
}
