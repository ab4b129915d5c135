import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * GET /api/site: the public site (name, logo, favicon, colours, contact and
 * social links, SEO texts), the server's public settings over its defaults.
 */
export type Site = Schema<'SiteBody'>

export const SITE_URL = '/api/site'

/**
 * The site the server wrote into the page it served (a JSON script element
 * the browser does not run), so the app starts with it without asking.
 * Absent under `vite dev` and in unit tests: then the query asks the server.
 */
function servedSite(): Site | undefined {
  if (typeof document === 'undefined') return undefined
  const text = document.getElementById('site-data')?.textContent
  if (!text) return undefined
  try {
    return JSON.parse(text) as Site
  } catch {
    return undefined
  }
}

const served = servedSite()

export function siteQueryOptions() {
  return queryOptions({
    queryKey: [SITE_URL],
    queryFn: getQueryFn<Site>(),
    // Read once: the page's copy, else one request; an admin's change to
    // the site settings invalidates it.
    initialData: served,
  })
}

/** The public site, or undefined while it loads. */
export function useSite(): Site | undefined {
  return useQuery(siteQueryOptions()).data
}

/** The name the site goes by; the app's own until the site has loaded. */
export function useSiteName(): string {
  return useSite()?.name ?? 'Nameport'
}
