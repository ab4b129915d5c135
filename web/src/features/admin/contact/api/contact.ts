import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** A contact request (the landing page's form) or contact message, as admins see it. */
export type ContactMessage = Schema<'ContactMessageBody'>
/** One page of the inbox, with the count of unread messages. */
export type ContactMessagePage = Schema<'ContactMessagePage'>
export type ContactStatus = ContactMessage['status']

export const CONTACT_URL = '/api/admin/contact-messages'
export const INBOX_PAGE_SIZE = 20

/** The landing form's interests, as the form shows them (spec). */
export const INTEREST_LABELS: Record<NonNullable<ContactMessage['interest']>, string> = {
  'end-user': 'Registering domains as an end user',
  registrar: 'Becoming a registrar partner',
  api: 'API integration',
  other: 'Other',
}

/** GET /api/admin/contact-messages: one page of the inbox, newest first. */
export function contactMessagesQueryOptions(filter: { status: ContactStatus | ''; page: number }) {
  return queryOptions({
    queryKey: [CONTACT_URL, filter],
    queryFn: async () => {
      const params = new URLSearchParams({ page: String(filter.page), pageSize: String(INBOX_PAGE_SIZE) })
      if (filter.status) params.set('status', filter.status)
      return unwrap(await apiRequest<ApiEnvelope<ContactMessagePage>>('GET', `${CONTACT_URL}?${params}`))
    },
    placeholderData: keepPreviousData,
  })
}

/** GET /api/admin/contact-messages/{id}: one message; a new one becomes read. */
export function contactMessageQueryOptions(id: number) {
  return queryOptions({
    queryKey: [`${CONTACT_URL}/${id}`],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<ContactMessage>>('GET', `${CONTACT_URL}/${id}`)),
  })
}

/** POST /api/admin/contact-messages/{id}/reply: mails the answer to the sender. */
export async function replyToContactMessage(id: number, message: string): Promise<ContactMessage> {
  const body: Schema<'AdminContactReplyInputBody'> = { message }
  return unwrap(await apiRequest<ApiEnvelope<ContactMessage>>('POST', `${CONTACT_URL}/${id}/reply`, body))
}

/** DELETE /api/admin/contact-messages/{id}. */
export async function deleteContactMessage(id: number): Promise<void> {
  await apiRequest('DELETE', `${CONTACT_URL}/${id}`)
}
