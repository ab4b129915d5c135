import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, ApiError, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'

const FALLBACK_MESSAGE = 'Failed to generate a new API key'

/**
 * GET /api/registrar/api-key: the registrar's API key. It is in no login or
 * session answer (a secret there ends up in caches and logs); the dashboard
 * reads it here when it shows it.
 */
export function apiKeyQueryOptions() {
  return queryOptions({
    queryKey: ['/api/registrar/api-key'],
    queryFn: getQueryFn<{ apiKey: string }>(),
  })
}

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
 * Generates a new API key. On success the cached key (the one the dashboard
 * shows) becomes the new key at once and is then re-read.
 */
export function useRegenerateApiKey() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: regenerateApiKey,
    onSuccess: (apiKey) => {
      const { queryKey } = apiKeyQueryOptions()
      queryClient.setQueryData(queryKey, { apiKey })
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
