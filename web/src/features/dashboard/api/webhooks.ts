import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, getQueryFn, serverMessage, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** The registrar's endpoints and the events one may subscribe to. */
export type WebhookEndpointList = Schema<'WebhookEndpointList'>

/** One endpoint: URL, events, whether it is enabled, its newest delivery. Never its secret. */
export type WebhookEndpoint = Schema<'WebhookEndpoint'>

/** What the add dialog sends. */
export type WebhookEndpointRequest = Schema<'WebhookEndpointRequest'>

/** What the edit dialog and the on/off switch send: the fields that change. */
export type WebhookEndpointUpdate = Schema<'WebhookEndpointUpdate'>

/** An endpoint just added, with its signing secret: the only time the secret is shown. */
export type NewWebhookEndpoint = Schema<'NewWebhookEndpoint'>

/** One event sent to one endpoint, and how its attempts went. */
export type WebhookDelivery = Schema<'WebhookDelivery'>

export type WebhookDeliveryPage = Schema<'WebhookDeliveryPage'>

/** What each event tells, for the add dialog. The server lists which events there are. */
export const EVENT_HELP: Record<string, string> = {
  'domain.registered': 'A domain is registered',
  'domain.renewed': 'A domain is renewed, by you or automatically',
  'domain.expiring': 'A domain expires soon (the expiry reminders)',
  'domain.expired': 'A domain has expired and is in its grace period',
  'domain.released': 'A domain was released after its grace period',
  'wallet.deposit_completed': 'Funds reached your wallet',
  'dns.changed': "A domain's DNS records changed",
}

const hooksPath = '/api/registrar/webhooks'

/** GET /api/registrar/webhooks: the endpoints, oldest first, and the events there are. */
export function webhooksQueryOptions() {
  return queryOptions({
    queryKey: [hooksPath],
    queryFn: getQueryFn<WebhookEndpointList>(),
    // An endpoint's last delivery is still being made: look again shortly.
    refetchInterval: (query) =>
      query.state.data?.endpoints.some((e) => e.lastDelivery?.state === 'pending' && e.lastDelivery.attempts === 0)
        ? 1000
        : false,
  })
}

/** GET /api/registrar/webhooks/{id}/deliveries: the endpoint's newest deliveries. */
export function deliveriesQueryOptions(id: number) {
  return queryOptions({
    queryKey: [`${hooksPath}/${id}/deliveries`],
    queryFn: getQueryFn<WebhookDeliveryPage>(),
    // Deliveries are made by the server's workers: while one is still
    // being tried, look again every few seconds.
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.state === 'pending' && d.attempts === 0) ? 1000 : false,
  })
}

/** POST /api/registrar/webhooks: adds an endpoint; 422 says what is wrong with its URL or events. */
export async function createWebhook(request: WebhookEndpointRequest): Promise<NewWebhookEndpoint> {
  return unwrap(await apiRequest<ApiEnvelope<NewWebhookEndpoint>>('POST', hooksPath, request))
}

/** PATCH /api/registrar/webhooks/{id}: new events, or the endpoint turned on or off. */
export async function updateWebhook({
  id,
  update,
}: {
  id: number
  update: WebhookEndpointUpdate
}): Promise<WebhookEndpoint> {
  return unwrap(await apiRequest<ApiEnvelope<WebhookEndpoint>>('PATCH', `${hooksPath}/${id}`, update))
}

/** DELETE /api/registrar/webhooks/{id}: the endpoint and its log go. */
export async function deleteWebhook(id: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${hooksPath}/${id}`))
}

/** POST /api/registrar/webhooks/{id}/test: a webhook.test event, sent now. */
export async function testWebhook(id: number): Promise<WebhookDelivery> {
  return unwrap(await apiRequest<ApiEnvelope<WebhookDelivery>>('POST', `${hooksPath}/${id}/test`))
}

/** A change to the endpoints: the list and the delivery logs are read again. */
function useWebhooksMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: () =>
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith(hooksPath) }),
  })
}

export const useCreateWebhook = () => useWebhooksMutation(createWebhook)
export const useUpdateWebhook = () => useWebhooksMutation(updateWebhook)
export const useDeleteWebhook = () => useWebhooksMutation(deleteWebhook)
export const useTestWebhook = () => useWebhooksMutation(testWebhook)

/** A failed call's text: the server's message, else the app's general fallback. */
export function webhookErrorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}
