import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/** A registered domain (spec section 3), shared by the dashboards, the domain page and registration. */
export type Domain = Schema<'DomainBody'>

export type DomainStatus = Domain['status']

export function domainsQueryOptions() {
  return queryOptions({
    queryKey: ['/api/domains'],
    queryFn: getQueryFn<Domain[]>(),
  })
}

export function domainQueryOptions(id: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${id}`],
    queryFn: getQueryFn<Domain>(),
  })
}
