import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * GET /api/rules: the business rules the app shows and checks as the user
 * types (tier prices, deposit limits, label rules, premium bounds…). The
 * server owns them and checks every request; the app never keeps a copy.
 */
export type Rules = Schema<'RulesBody'>

export function rulesQueryOptions() {
  return queryOptions({
    queryKey: ['/api/rules'],
    queryFn: getQueryFn<Rules>(),
  })
}

/** The server's rules, or undefined while they load. */
export function useRules(): Rules | undefined {
  return useQuery(rulesQueryOptions()).data
}
