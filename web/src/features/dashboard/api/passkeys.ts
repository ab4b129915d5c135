import { queryOptions } from '@tanstack/react-query'
import { apiRequest, getQueryFn, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'
import { createPasskey } from '@/lib/webauthn'

/** One of the account's passkeys. */
export type Passkey = Schema<'PasskeyBody'>

type PasskeyOptions = Schema<'PasskeyOptionsBody'>

const passkeysPath = '/api/account/passkeys'

export const passkeyKeys = { list: [passkeysPath] } as const

/** GET /api/account/passkeys: oldest first. */
export function passkeysQueryOptions() {
  return queryOptions({
    queryKey: passkeyKeys.list,
    queryFn: getQueryFn<Passkey[] | null>(),
    select: (list) => list ?? [],
  })
}

/**
 * Adds a passkey: the server's options, the browser's ceremony (the
 * authenticator asks its user), then the answer back to the server.
 */
export async function addPasskey(name: string): Promise<Passkey> {
  const opts = unwrap(await apiRequest<ApiEnvelope<PasskeyOptions>>('POST', `${passkeysPath}/options`))
  const credential = await createPasskey(opts.options)
  return unwrap(
    await apiRequest<ApiEnvelope<Passkey>>('POST', passkeysPath, {
      ceremonyToken: opts.ceremonyToken,
      name,
      credential,
    }),
  )
}

/** PATCH /api/account/passkeys/{id}. */
export async function renamePasskey({ id, name }: { id: number; name: string }): Promise<Passkey> {
  return unwrap(await apiRequest<ApiEnvelope<Passkey>>('PATCH', `${passkeysPath}/${id}`, { name }))
}

/** DELETE /api/account/passkeys/{id}. */
export async function removePasskey({ id, password }: { id: number; password: string }): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${passkeysPath}/${id}`, { password }))
}
