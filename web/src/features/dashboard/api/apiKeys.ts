import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, getQueryFn, serverMessage, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'
import { apiKeyQueryOptions } from './apiKey'

/** One of the registrar's API keys: its scopes, addresses, expiry and last use. Never its secret. */
export type ApiKey = Schema<'APIKey'>

/** What the create dialog sends. */
export type ApiKeyRequest = Schema<'APIKeyRequest'>

/** A key just made or rotated, with its secret: the only time the secret is shown. */
export type NewApiKey = Schema<'NewAPIKey'>

export type Scope = ApiKey['scopes'][number]

/** The scopes, in the server's order, with what each allows on /v1. */
export const SCOPES: { scope: Scope; label: string; allows: string }[] = [
  { scope: 'read', label: 'Read', allows: 'Every read: domains, records, wallet, transactions' },
  { scope: 'dns', label: 'DNS', allows: 'Change DNS records, email forwarding and domain forwarding' },
  { scope: 'register', label: 'Register', allows: 'Check availability and register domains' },
  { scope: 'wallet', label: 'Wallet', allows: 'Add funds to the wallet' },
]

const keysPath = '/api/registrar/keys'

/** GET /api/registrar/keys: the registrar's keys that are not revoked, oldest first. */
export function apiKeysQueryOptions() {
  return queryOptions({
    queryKey: [keysPath],
    queryFn: getQueryFn<ApiKey[] | null>(),
    select: (keys) => keys ?? [],
  })
}

/** POST /api/registrar/keys: makes a key; 422 names what is wrong with the request. */
export async function createApiKey(request: ApiKeyRequest): Promise<NewApiKey> {
  return unwrap(await apiRequest<ApiEnvelope<NewApiKey>>('POST', keysPath, request))
}

/** POST /api/registrar/keys/{id}/rotate: a new secret; the old one stops working at once. */
export async function rotateApiKey(id: number): Promise<NewApiKey> {
  return unwrap(await apiRequest<ApiEnvelope<NewApiKey>>('POST', `${keysPath}/${id}/rotate`))
}

/** DELETE /api/registrar/keys/{id}: the key stops working for good (409 for the Default key). */
export async function revokeApiKey(id: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${keysPath}/${id}`))
}

/**
 * A change to the keys: the list is read again, and so is the Default key the
 * tab shows (rotating it changes it).
 */
function useKeysMutation<Input, Output>(mutationFn: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey })
      void queryClient.invalidateQueries({ queryKey: apiKeyQueryOptions().queryKey })
    },
  })
}

export const useCreateApiKey = () => useKeysMutation(createApiKey)
export const useRotateApiKey = () => useKeysMutation(rotateApiKey)
export const useRevokeApiKey = () => useKeysMutation(revokeApiKey)

/** A failed call's text: the server's message, else the app's general fallback. */
export function keyErrorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}
