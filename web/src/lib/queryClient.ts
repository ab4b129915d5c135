import { QueryClient } from '@tanstack/react-query'
import { getQueryFn } from './api'

/**
 * Spec section 7: queries never refetch on an interval or on focus, never go
 * stale and are not retried; mutations are not retried either. Data changes
 * reach the cache through explicit invalidation.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  })
}
