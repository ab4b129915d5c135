import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound, Pencil, Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { passkeyErrorMessage, passkeysSupported } from '@/lib/webauthn'
import { accountSecurityKeys } from '../api/accountSecurity'
import {
  addPasskey,
  passkeyKeys,
  passkeysQueryOptions,
  removePasskey,
  renamePasskey,
  type Passkey,
} from '../api/passkeys'

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

function formatWhen(value: string) {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : when.format(date)
}

/** The server's words for a refusal, else the browser's for a ceremony that failed in it. */
function failure(error: unknown) {
  return error instanceof ApiError ? serverMessage(error) || 'An unexpected error occurred' : passkeyErrorMessage(error)
}

const maxName = 64

/**
 * Account Settings' passkeys: add several (each signs in alone, or confirms
 * a sign-in after the password), name and rename them, remove them, and
 * see when each was added and last used.
 */
export function PasskeysSettings() {
  const queryClient = useQueryClient()
  const passkeys = useQuery(passkeysQueryOptions())
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'rename' | 'remove'; passkey: Passkey }>()
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: passkeyKeys.list })
    void queryClient.invalidateQueries({ queryKey: accountSecurityKeys.twoFactor })
    void queryClient.invalidateQueries({ queryKey: accountSecurityKeys.sessions })
  }

  const list = passkeys.data ?? []
  return (
    <section aria-labelledby="passkeys-heading" className="space-y-3 border-t border-slate-200 pt-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="passkeys-heading" className="text-base font-semibold text-slate-900">
          Passkeys
        </h3>
        <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'add' })}>
          <Plus className="h-4 w-4" aria-hidden />
          Add a passkey
        </Button>
      </div>
      <p className="text-sm text-slate-600">
        A passkey signs you in with your fingerprint, face or device PIN instead of a password, and confirms a sign-in
        with your password as a second factor.
      </p>
      {passkeys.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : passkeys.isError ? (
        <p className="text-sm text-red-600">Could not load your passkeys.</p>
      ) : list.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-500">No passkeys yet.</p>
      ) : (
        <ul aria-label="Passkeys" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.map((p) => (
            <li
              key={p.id}
              aria-label={p.name}
              className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex min-w-0 gap-3">
                <KeyRound className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
                <div className="min-w-0 space-y-0.5">
                  <p className="break-words font-medium text-slate-900">{p.name}</p>
                  <p className="text-xs text-slate-500">
                    Added {formatWhen(p.createdAt)} ·{' '}
                    {p.lastUsedAt ? `Last used ${formatWhen(p.lastUsedAt)}` : 'Never used'}
                  </p>
                </div>
              </div>
              <div className="flex gap-2 self-start sm:self-center">
                <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'rename', passkey: p })}>
                  <Pencil className="h-4 w-4" aria-hidden />
                  Rename
                </Button>
                <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'remove', passkey: p })}>
                  <Trash2 className="h-4 w-4" aria-hidden />
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <NameDialog
        key={dialog?.kind === 'rename' ? `rename-${dialog.passkey.id}` : dialog?.kind}
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        passkey={dialog?.kind === 'rename' ? dialog.passkey : undefined}
        onClose={() => setDialog(undefined)}
        onDone={(p, added) => {
          setDialog(undefined)
          changed()
          toast(
            added
              ? {
                  title: 'Passkey added',
                  description: `“${p.name}” can sign you in. Your other sessions have been logged out.`,
                }
              : { title: 'Passkey renamed' },
          )
        }}
      />
      <RemoveDialog
        passkey={dialog?.kind === 'remove' ? dialog.passkey : undefined}
        onClose={() => setDialog(undefined)}
        onDone={() => {
          setDialog(undefined)
          changed()
          toast({ title: 'Passkey removed', description: 'Your other sessions have been logged out.' })
        }}
      />
    </section>
  )
}

/** Adding (name, then the browser's passkey prompt) or renaming a passkey. */
function NameDialog({
  open,
  passkey,
  onClose,
  onDone,
}: {
  open: boolean
  passkey?: Passkey
  onClose: () => void
  onDone: (passkey: Passkey, added: boolean) => void
}) {
  const [name, setName] = useState(passkey?.name ?? '')
  const [error, setError] = useState<string>()
  const mutation = useMutation({
    mutationFn: (value: string) => (passkey ? renamePasskey({ id: passkey.id, name: value }) : addPasskey(value)),
    onSuccess: (p) => onDone(p, !passkey),
    onError: (e) => setError(failure(e)),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = name.trim()
    if (value.length > maxName) {
      setError(`A passkey's name has at most ${maxName} characters`)
      return
    }
    if (!passkey && !passkeysSupported()) {
      setError('This browser does not support passkeys.')
      return
    }
    setError(undefined)
    mutation.mutate(value)
  }
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{passkey ? 'Rename passkey' : 'Add a passkey'}</DialogTitle>
          <DialogDescription>
            {passkey
              ? 'A name that tells you which device or password manager holds it.'
              : 'Name it after the device or password manager that will keep it; your browser then asks you to create the passkey.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="mt-5 space-y-4">
          <Field label="Name" error={error}>
            {(ids) => (
              <Input
                {...ids}
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="e.g. MacBook Touch ID"
                maxLength={maxName + 10}
                autoFocus
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending
                ? passkey
                  ? 'Saving…'
                  : 'Waiting for your passkey…'
                : passkey
                  ? 'Save'
                  : 'Create passkey'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/**
 * Removing a passkey, with the password asked again: a passkey may be the
 * account's only second factor, and a session left open must not be
 * enough to take it away. The server's refusal shows on the field.
 */
function RemoveDialog({ passkey, onClose, onDone }: { passkey?: Passkey; onClose: () => void; onDone: () => void }) {
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const remove = useMutation({
    mutationFn: removePasskey,
    onSuccess: () => {
      setPassword('')
      onDone()
    },
    onError: (e) => setError(serverMessage(e) || 'An unexpected error occurred'),
  })
  const close = () => {
    if (remove.isPending) return
    setPassword('')
    setError(undefined)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!passkey) return
    if (!password) {
      setError('Enter your password')
      return
    }
    setError(undefined)
    remove.mutate({ id: passkey.id, password })
  }
  return (
    <Dialog open={passkey !== undefined} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Remove this passkey?</DialogTitle>
          <DialogDescription>
            “{passkey?.name}” will no longer sign you in. Your other sessions will be logged out.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="mt-5 space-y-4">
          <Field label="Password" error={error}>
            {(ids) => (
              <Input
                {...ids}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={remove.isPending}>
              {remove.isPending ? 'Removing…' : 'Remove'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
