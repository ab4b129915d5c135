import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { ApiError, apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** A page as admins see it (GET /api/admin/pages), drafts included. */
export type AdminPage = Schema<'PageBody'>

/** The fields POST and PATCH /api/admin/pages accept; all optional. */
export type PageInput = Schema<'PageFields'>

export type PageType = AdminPage['pageType']

/** The spec's page types, the default first. */
export const PAGE_TYPES: PageType[] = ['page', 'blog', 'career', 'about', 'press', 'contact', 'api']

const URL = '/api/admin/pages'

export function adminPagesQueryOptions() {
  return queryOptions({ queryKey: [URL] as const, queryFn: getQueryFn<AdminPage[]>() })
}

/** Refreshes the list and every public page the app has read (/api/pages/{slug}). */
export function refreshPages(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [URL] }),
    queryClient.invalidateQueries({
      predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith('/api/pages/'),
    }),
  ])
}

export async function createPage(body: PageInput): Promise<AdminPage> {
  return unwrap(await apiRequest<ApiEnvelope<AdminPage>>('POST', URL, body))
}

export async function updatePage(id: number, body: PageInput): Promise<AdminPage> {
  return unwrap(await apiRequest<ApiEnvelope<AdminPage>>('PATCH', `${URL}/${id}`, body))
}

export async function deletePage(id: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${URL}/${id}`))
}

/** The form fields the server's messages are about, by the label each message starts with. */
const fieldLabels = [
  ['metaTitle', 'Meta title'],
  ['metaDescription', 'Meta description'],
  ['featuredImage', 'Featured image'],
  ['slug', 'Slug'],
  ['title', 'Title'],
  ['content', 'Content'],
  ['pageType', 'Type'],
] as const

export type PageField = (typeof fieldLabels)[number][0]

/**
 * The form field a refused save is about: the envelope's field when the
 * server names one, else the field whose label the message starts with
 * (the pages service words every message so); undefined for other errors.
 */
export function fieldOf(error: unknown): PageField | undefined {
  if (!(error instanceof ApiError) || !error.error) return undefined
  const named = (error as ApiError & { field?: unknown }).field
  const byName = fieldLabels.find(([field]) => field === named)
  if (byName) return byName[0]
  return fieldLabels.find(([, label]) => error.error?.startsWith(`${label} `))?.[0]
}
