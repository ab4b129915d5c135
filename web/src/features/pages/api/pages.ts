import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** A page as GET /api/pages/{slug} answers it (spec section 3 "Page"). */
export type Page = Schema<'PageBody'>

/** The same key the admin panel invalidates after a change: `/api/pages/${slug}`. */
export function pageQueryOptions(slug: string) {
  return queryOptions({
    queryKey: [`/api/pages/${encodeURIComponent(slug)}`] as const,
    queryFn: getQueryFn<Page>(),
    // A missing or unpublished page is the not-found page, at once.
    retry: false,
  })
}
