import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Plus, RefreshCw, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { toast } from '@/components/toast/toastStore'
import { formatDate } from '@/lib/format'
import {
  apiKeysQueryOptions,
  keyErrorText,
  SCOPES,
  useRevokeApiKey,
  useRotateApiKey,
  type ApiKey,
  type NewApiKey,
} from '../api/apiKeys'
import { CreateKeyDialog } from './CreateKeyDialog'
import { KeySecretDialog } from './KeySecretDialog'

const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' })

/** When a key was last used, to the minute (the day, then the time); 'Never' before its first use. */
function LastUsed({ apiKey }: { apiKey: ApiKey }) {
  if (!apiKey.lastUsedAt) return <span className="text-slate-600">Never</span>
  return (
    <span className="text-slate-700">
      {formatDate(apiKey.lastUsedAt)}
      <span className="block text-xs text-slate-500">{time.format(new Date(apiKey.lastUsedAt))}</span>
    </span>
  )
}

function scopeLabel(scope: ApiKey['scopes'][number]): string {
  return SCOPES.find((s) => s.scope === scope)?.label ?? scope
}

/**
 * The API Access tab's keys: each with its scopes, the addresses it works
 * from, its expiry and last use; make one (its secret shown once), rotate
 * one (a new secret, shown once) or revoke one, each asked first. The Default
 * key is the one the card above shows: it is rotated, never revoked.
 */
export function ApiKeysCard() {
  const keys = useQuery(apiKeysQueryOptions())
  const [creating, setCreating] = useState(false)
  const [confirmRotate, setConfirmRotate] = useState<ApiKey | null>(null)
  const [confirmRevoke, setConfirmRevoke] = useState<ApiKey | null>(null)
  const [shown, setShown] = useState<{ key: NewApiKey; rotated: boolean } | null>(null)
  const rotate = useRotateApiKey()
  const revoke = useRevokeApiKey()
  const now = Date.now()

  const onRotate = (key: ApiKey) =>
    rotate.mutate(key.id, {
      onSuccess: (rotated) => {
        setConfirmRotate(null)
        setShown({ key: rotated, rotated: true })
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: keyErrorText(error) }),
    })
  const onRevoke = (key: ApiKey) =>
    revoke.mutate(key.id, {
      onSuccess: () => {
        setConfirmRevoke(null)
        toast({ title: 'API key revoked', description: `${key.name} no longer works.` })
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: keyErrorText(error) }),
    })

  const actions = (key: ApiKey) => (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Rotate key ${key.name}`}
        title="Rotate"
        onClick={() => setConfirmRotate(key)}
      >
        <RefreshCw className="h-4 w-4" aria-hidden />
      </Button>
      {key.primary ? (
        // Keeps the column's width: the Default key is rotated, never revoked.
        <span className="inline-block w-9" aria-hidden />
      ) : (
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Revoke key ${key.name}`}
          title="Revoke"
          onClick={() => setConfirmRevoke(key)}
          className="text-red-600 hover:bg-red-50 hover:text-red-700"
        >
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      )}
    </div>
  )

  const columns: Column<ApiKey>[] = [
    { header: 'Name', rowHeader: true, width: 'w-[20%]', cell: (k) => <KeyName apiKey={k} /> },
    { header: 'Scopes', width: 'w-[17%]', cell: (k) => <Scopes apiKey={k} /> },
    { header: 'Allowed from', cell: (k) => <AllowedFrom apiKey={k} /> },
    { header: 'Expires', width: 'w-[15%]', cell: (k) => <Expiry apiKey={k} now={now} /> },
    { header: 'Last used', width: 'w-[16%]', cell: (k) => <LastUsed apiKey={k} /> },
    { header: 'Actions', align: 'right', width: 'w-24', cell: actions },
  ]

  return (
    <Card>
      <CardHeader className="flex flex-col items-start gap-3 space-y-0 sm:flex-row sm:justify-between sm:gap-4">
        <div className="space-y-1">
          <CardTitle>API keys</CardTitle>
          <CardDescription>
            Give each program its own key, with only the access it needs, from the addresses it runs at.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setCreating(true)} className="shrink-0">
          <Plus className="h-4 w-4" aria-hidden />
          Create key
        </Button>
      </CardHeader>
      <CardContent>
        {keys.isPending ? (
          <p className="text-sm text-slate-500">Loading your API keys...</p>
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your API keys could not be loaded. {keyErrorText(keys.error)}
          </p>
        ) : (
          <DataTable
            label="API keys"
            rows={keys.data}
            rowKey={(k) => k.id}
            columns={columns}
            fixed
            stackBelow="md"
            rowClassName={() => 'align-top'}
            stacked={(k) => (
              <>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0 pt-2">
                    <KeyName apiKey={k} />
                  </div>
                  {actions(k)}
                </div>
                <dl className="mt-2 grid grid-cols-[auto,1fr] gap-x-4 gap-y-2 text-sm">
                  <dt className="text-slate-500">Scopes</dt>
                  <dd>
                    <Scopes apiKey={k} />
                  </dd>
                  <dt className="text-slate-500">Allowed from</dt>
                  <dd className="min-w-0">
                    <AllowedFrom apiKey={k} />
                  </dd>
                  <dt className="text-slate-500">Expires</dt>
                  <dd>
                    <Expiry apiKey={k} now={now} />
                  </dd>
                  <dt className="text-slate-500">Last used</dt>
                  <dd>
                    <LastUsed apiKey={k} />
                  </dd>
                </dl>
              </>
            )}
          />
        )}
      </CardContent>

      {creating && (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false)
            setShown({ key, rotated: false })
          }}
        />
      )}
      {shown && <KeySecretDialog newKey={shown.key} rotated={shown.rotated} onClose={() => setShown(null)} />}
      <ConfirmDialog
        open={confirmRotate !== null}
        title={`Rotate ${confirmRotate?.name ?? 'key'}?`}
        description="Its secret stops working at once: programs that use it need the new secret, shown next. Its scopes, addresses and expiry stay."
        action={rotate.isPending ? 'Rotating...' : 'Rotate key'}
        pending={rotate.isPending}
        onCancel={() => !rotate.isPending && setConfirmRotate(null)}
        onConfirm={() => confirmRotate && onRotate(confirmRotate)}
      />
      <ConfirmDialog
        open={confirmRevoke !== null}
        title={`Revoke ${confirmRevoke?.name ?? 'key'}?`}
        description="Programs that use this key lose access at once. A revoked key cannot be brought back."
        action={revoke.isPending ? 'Revoking...' : 'Revoke key'}
        pending={revoke.isPending}
        onCancel={() => !revoke.isPending && setConfirmRevoke(null)}
        onConfirm={() => confirmRevoke && onRevoke(confirmRevoke)}
      />
    </Card>
  )
}

/** A key's name, and under it its creation day (the Default key: that it is the one shown above). */
function KeyName({ apiKey }: { apiKey: ApiKey }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{apiKey.name}</p>
      <p className="text-xs font-normal text-slate-500">
        {apiKey.primary ? 'The key shown above' : `Created ${formatDate(apiKey.createdAt)}`}
      </p>
    </div>
  )
}

function Scopes({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.scopes.length === SCOPES.length) return <Badge tone="brand">All scopes</Badge>
  return (
    <div className="flex flex-wrap gap-1.5">
      {apiKey.scopes.map((scope) => (
        <Badge key={scope}>{scopeLabel(scope)}</Badge>
      ))}
    </div>
  )
}

function AllowedFrom({ apiKey }: { apiKey: ApiKey }) {
  if (apiKey.allowedAddresses.length === 0) return <span className="text-slate-600">Anywhere</span>
  return (
    <ul className="space-y-0.5 font-mono text-[13px] text-slate-800">
      {apiKey.allowedAddresses.map((address) => (
        <li key={address} className="[overflow-wrap:anywhere]">
          {address}
        </li>
      ))}
    </ul>
  )
}

function Expiry({ apiKey, now }: { apiKey: ApiKey; now: number }) {
  if (!apiKey.expiresAt) return <span className="text-slate-600">Never</span>
  if (new Date(apiKey.expiresAt).getTime() <= now) {
    return (
      <span className="space-y-1">
        <Badge tone="premium">Expired</Badge>
        <span className="block text-xs text-slate-500">{formatDate(apiKey.expiresAt)}</span>
      </span>
    )
  }
  return <span className="text-slate-700">{formatDate(apiKey.expiresAt)}</span>
}
