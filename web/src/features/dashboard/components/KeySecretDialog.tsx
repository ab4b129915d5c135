import type { NewApiKey } from '../api/apiKeys'
import { SecretOnceDialog } from './SecretOnceDialog'

/**
 * A key's secret, just made or rotated: the only time it is shown. The
 * dialog says so, and offers to copy it.
 */
export function KeySecretDialog({
  newKey,
  rotated,
  onClose,
}: {
  newKey: NewApiKey
  rotated: boolean
  onClose: () => void
}) {
  return (
    <SecretOnceDialog
      title={rotated ? `New secret for ${newKey.key.name}` : `${newKey.key.name} is ready`}
      description={
        rotated
          ? 'The old secret no longer works. Give your programs this one.'
          : 'Send it in the X-API-Key header of every request.'
      }
      secret={newKey.secret}
      noun={{ full: 'API key', short: 'key' }}
      fieldLabel="New API key"
      copiedTitle="API Key copied"
      warning="This is the only time this key is shown. Store it somewhere safe now: if it is lost, rotate the key to get a new one."
      onClose={onClose}
    />
  )
}
