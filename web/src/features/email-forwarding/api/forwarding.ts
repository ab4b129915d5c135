import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Forwarding, ForwardingRule } from '@/lib/emailForwarding'
import type { Schema } from '@/lib/schemas'

export { forwardingQueryOptions, type Forwarding, type ForwardingRule } from '@/lib/emailForwarding'

export type ForwardingDestination = Schema<'ForwardingDestinationBody'>

/** One message of the forwarding log: forwarded, failed or refused. */
export type ForwardingLogEntry = Schema<'ForwardingLogEntryBody'>

/** The alias of the rule that takes every address no other rule names. */
export const CATCH_ALL = '*'

/** GET /api/domains/{id}/email-forwarding/log: the last 100 messages, newest first. */
export function forwardingLogQueryOptions(domainId: string | number) {
  return queryOptions({
    queryKey: [`/api/domains/${domainId}/email-forwarding/log`],
    queryFn: getQueryFn<ForwardingLogEntry[] | null>(),
  })
}

/**
 * PUT /api/domains/{id}/email-forwarding: turns forwarding on or off;
 * answers the forwarding afterwards. Turning on while another service's
 * mail records are there is a 409 unless replaceMailRecords is set.
 */
export async function setForwarding(
  domainId: number | string,
  enabled: boolean,
  replaceMailRecords = false,
): Promise<Forwarding> {
  const body: Schema<'ForwardingSetInputBody'> = replaceMailRecords ? { enabled, replaceMailRecords } : { enabled }
  return unwrap(await apiRequest<ApiEnvelope<Forwarding>>('PUT', `/api/domains/${domainId}/email-forwarding`, body))
}

/** POST /api/domains/{id}/email-forwarding/rules: adds a rule (201); the server checks alias and addresses. */
export async function addRule(
  domainId: number | string,
  input: Required<Schema<'ForwardingRuleCreateInputBody'>>,
): Promise<ForwardingRule> {
  return unwrap(
    await apiRequest<ApiEnvelope<ForwardingRule>>('POST', `/api/domains/${domainId}/email-forwarding/rules`, input),
  )
}

/**
 * PUT /api/domains/{id}/email-forwarding/rules/{ruleId}: gives a rule its
 * alias and addresses from now on, with the checks of adding one (409 when
 * another rule has the alias, 404 when the rule is gone).
 */
export async function updateRule(
  domainId: number | string,
  ruleId: number,
  input: Required<Schema<'ForwardingRuleUpdateInputBody'>>,
): Promise<ForwardingRule> {
  return unwrap(
    await apiRequest<ApiEnvelope<ForwardingRule>>(
      'PUT',
      `/api/domains/${domainId}/email-forwarding/rules/${ruleId}`,
      input,
    ),
  )
}

/** DELETE /api/domains/{id}/email-forwarding/rules/{ruleId}. */
export async function deleteRule(domainId: number | string, ruleId: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `/api/domains/${domainId}/email-forwarding/rules/${ruleId}`))
}

/** POST …/destinations/resend: mails an unconfirmed address a new link (429 within a minute of the last). */
export async function resendLink(domainId: number | string, address: string): Promise<void> {
  const body: Schema<'ForwardingResendInputBody'> = { address }
  unwrap(
    await apiRequest<ApiEnvelope<unknown>>(
      'POST',
      `/api/domains/${domainId}/email-forwarding/destinations/resend`,
      body,
    ),
  )
}

/**
 * What the page says of a link that lost its token on the way (the server's
 * own words answer for a token it does not know or that was used).
 */
export const incompleteConfirmLinkMessage = 'This link is incomplete: open the link in the email again, in full.'

/** POST /api/email-forwarding/confirm: uses a mailed link's token (once); answers the address confirmed. */
export async function confirmDestination(token: string): Promise<string> {
  const body: Schema<'ForwardingConfirmInputBody'> = { token }
  const confirmed = unwrap(
    await apiRequest<ApiEnvelope<Schema<'ForwardingConfirmedBody'>>>('POST', '/api/email-forwarding/confirm', body),
  )
  return confirmed.address
}

/** A rule's address as mail is sent to it: alias@domain, or the catch-all's wording. */
export function ruleAddress(alias: string, apex: string): string {
  return alias === CATCH_ALL ? `Catch-all (*@${apex})` : `${alias}@${apex}`
}
