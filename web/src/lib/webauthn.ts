/**
 * Passkey ceremonies in the browser. The server sends WebAuthn options as
 * JSON ({publicKey: …}, binary members in base64url) and takes the
 * browser's answer as JSON; the browser's own parsers and toJSON() convert
 * (every browser with passkeys has them).
 */

type JSONOptions = { publicKey?: unknown } & Record<string, unknown>

type PublicKeyCredentialStatics = typeof PublicKeyCredential & {
  parseCreationOptionsFromJSON(options: unknown): PublicKeyCredentialCreationOptions
  parseRequestOptionsFromJSON(options: unknown): PublicKeyCredentialRequestOptions
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential !== 'undefined' &&
    typeof (window.PublicKeyCredential as Partial<PublicKeyCredentialStatics>).parseRequestOptionsFromJSON ===
      'function'
  )
}

/** The words to show when a ceremony in the browser fails (cancelled, no passkey, not supported). */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.'
    if (error.name === 'InvalidStateError') return 'This passkey is registered to your account already.'
    if (error.name === 'SecurityError') return 'Passkeys do not work at this address: use the site’s own address.'
  }
  if (!passkeysSupported()) return 'This browser does not support passkeys.'
  return error instanceof Error && error.message ? error.message : 'The passkey could not be used.'
}

function statics(): PublicKeyCredentialStatics {
  if (!passkeysSupported()) throw new Error('This browser does not support passkeys.')
  return window.PublicKeyCredential as PublicKeyCredentialStatics
}

function answer(credential: Credential | null): Record<string, unknown> {
  if (!credential) throw new DOMException('No passkey was chosen', 'NotAllowedError')
  return (credential as PublicKeyCredential & { toJSON(): Record<string, unknown> }).toJSON()
}

/** navigator.credentials.create with the server's options: the new passkey's answer, as JSON. */
export async function createPasskey(options: JSONOptions): Promise<Record<string, unknown>> {
  const publicKey = statics().parseCreationOptionsFromJSON(options.publicKey)
  return answer(await navigator.credentials.create({ publicKey }))
}

/** navigator.credentials.get with the server's options: the passkey's answer, as JSON. */
export async function getPasskey(options: JSONOptions): Promise<Record<string, unknown>> {
  const publicKey = statics().parseRequestOptionsFromJSON(options.publicKey)
  return answer(await navigator.credentials.get({ publicKey }))
}
