import { apiRequest } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** What the landing page's contact form sends (POST /api/contact). */
export type ContactRequest = Pick<Schema<'ContactSubmitInputBody'>, 'company' | 'email' | 'interest' | 'message'>

/** POST /api/contact: stores the request for the admins' Inbox; the answer says only that it arrived. */
export async function sendContactRequest(request: ContactRequest): Promise<void> {
  await apiRequest('POST', '/api/contact', { kind: 'request', ...request })
}
