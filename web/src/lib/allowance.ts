import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * A registrar's new registrations this calendar month (UTC) against its
 * tier's monthly allowance. Shared: the registrar dashboard shows it, and a
 * registration changes it.
 */
export type Allowance = Schema<'Allowance'>

export function allowanceQueryOptions() {
  return queryOptions({
    queryKey: ['/api/registrar/allowance'],
    queryFn: getQueryFn<Allowance>(),
  })
}
