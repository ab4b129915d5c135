import { queryOptions } from '@tanstack/react-query'
import { getQueryFn } from './api'
import type { Schema } from './schemas'

/**
 * A domain's email forwarding: on or off, the mail host its MX names, the
 * other service's mail records turning it on would replace, its rules and
 * how many it may have (the server's limit).
 */
export type Forwarding = Schema<'ForwardingBody'>

export type ForwardingRule = Schema<'ForwardingRuleBody'>

/** GET /api/domains/{id}/email-forwarding. The route starts it; the Email Forwarding tab reads it. */
export function forwardingQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/email-forwarding`],
    queryFn: getQueryFn<Forwarding>(),
  })
}
