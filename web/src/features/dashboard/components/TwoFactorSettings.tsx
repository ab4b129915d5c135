import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldCheck, ShieldOff } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
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
import { copyText } from '@/lib/clipboard'
import { serverMessage } from '@/lib/api'
import { formatDate } from '@/lib/format'
import {
  accountSecurityKeys,
  beginTotp,
  confirmTotp,
  disableTwoFactor,
  regenerateRecoveryCodes,
  twoFactorQueryOptions,
  type TotpSetup,
} from '../api/accountSecurity'

const codeError = 'Enter the 6-digit code from your authenticator app'
const isCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ''))

/** The secret in groups of four, as authenticator apps show and take it. */
function grouped(secret: string) {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret
}

/**
 * Account Settings' two-factor sign-in: set up an authenticator app (QR code
 * or the secret as text, confirmed by a first code), the recovery codes shown
 * once, new recovery codes, and turning it off with the password or a code.
 */
export function TwoFactorSettings() {
  const queryClient = useQueryClient()
  const status = useQuery(twoFactorQueryOptions())
  const [setup, setSetup] = useState<TotpSetup>()
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>()
  const [dialog, setDialog] = useState<'disable' | 'regenerate'>()

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: accountSecurityKeys.twoFactor })
    void queryClient.invalidateQueries({ queryKey: accountSecurityKeys.sessions })
  }

  const begin = useMutation({
    mutationFn: beginTotp,
    onSuccess: setSetup,
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Setup failed',
        description: serverMessage(error) || 'An unexpected error occurred',
      }),
  })

  const on = status.data?.totpEnabled
  // A passkey alone is a second step too: the badge is the server's "on".
  const passkeysOnly = !on && !!status.data?.on
  return (
    <section aria-labelledby="two-factor-heading" className="space-y-3 border-t border-slate-200 pt-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="two-factor-heading" className="text-base font-semibold text-slate-900">
          Two-factor sign-in
        </h3>
        {status.data && (status.data.on ? <Badge tone="success">On</Badge> : <Badge tone="muted">Off</Badge>)}
      </div>

      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />
      ) : setup ? (
        <SetupPanel
          setup={setup}
          onCancel={() => setSetup(undefined)}
          onConfirmed={(codes) => {
            setSetup(undefined)
            setRecoveryCodes(codes)
            changed()
            toast({ title: 'Two-factor sign-in is on', description: 'Your other sessions have been logged out.' })
          }}
        />
      ) : status.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : status.isError ? (
        <p className="text-sm text-red-600">Could not load your two-factor settings.</p>
      ) : on ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            Sign-in asks for a code from your authenticator app after your password
            {status.data.enabledAt ? ` (on since ${formatDate(status.data.enabledAt)})` : ''}. Recovery codes left:{' '}
            <strong>{status.data.recoveryCodesLeft}</strong>.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => setDialog('regenerate')}>
              New recovery codes
            </Button>
            <Button variant="outline" onClick={() => setDialog('disable')}>
              <ShieldOff className="h-4 w-4" aria-hidden />
              Turn off
            </Button>
          </div>
        </div>
      ) : (
        <div className="space-y-3">
          {passkeysOnly ? (
            <p className="text-sm text-slate-600">
              Sign-in asks for one of your passkeys after your password. You can add a code from an authenticator app
              such as Google Authenticator, 1Password or Authy as another way to pass that step.
            </p>
          ) : (
            <p className="text-sm text-slate-600">
              Protect your account with a second step at sign-in: a code from an authenticator app such as Google
              Authenticator, 1Password or Authy.
            </p>
          )}
          <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
            <ShieldCheck className="h-4 w-4" aria-hidden />
            {begin.isPending ? 'Preparing…' : 'Set up authenticator app'}
          </Button>
        </div>
      )}

      <DisableDialog
        open={dialog === 'disable'}
        onClose={() => setDialog(undefined)}
        onDone={() => {
          setDialog(undefined)
          changed()
          toast({ title: 'Two-factor sign-in is off', description: 'Your other sessions have been logged out.' })
        }}
      />
      <RegenerateDialog
        open={dialog === 'regenerate'}
        onClose={() => setDialog(undefined)}
        onDone={(codes) => {
          setDialog(undefined)
          setRecoveryCodes(codes)
          changed()
        }}
      />
    </section>
  )
}

function SetupPanel({
  setup,
  onCancel,
  onConfirmed,
}: {
  setup: TotpSetup
  onCancel: () => void
  onConfirmed: (codes: string[]) => void
}) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const confirm = useMutation({
    mutationFn: confirmTotp,
    onSuccess: onConfirmed,
    onError: (e) => setError(serverMessage(e) || 'An unexpected error occurred'),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!isCode(code)) {
      setError(codeError)
      return
    }
    setError(undefined)
    confirm.mutate(code)
  }
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Scan the QR code with your authenticator app, or enter the key below by hand.</li>
        <li>Enter the 6-digit code the app shows to turn two-factor sign-in on.</li>
      </ol>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={setup.qrCode}
          alt="QR code for your authenticator app"
          width={180}
          height={180}
          className="h-[180px] w-[180px] shrink-0 self-center rounded-md border border-slate-200 bg-white p-2 sm:self-start"
        />
        <div className="min-w-0 space-y-3">
          <div>
            <p className="text-sm font-medium text-slate-700">Key (if you cannot scan)</p>
            <code
              data-testid="totp-secret"
              className="mt-1 block break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-slate-200"
            >
              {grouped(setup.secret)}
            </code>
          </div>
          <form noValidate onSubmit={submit} className="space-y-3">
            <Field label="Code from the app" error={error}>
              {(ids) => (
                <Input
                  {...ids}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  placeholder="123456"
                  className="max-w-[12rem] font-mono tracking-widest"
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={confirm.isPending}>
                {confirm.isPending ? 'Turning on…' : 'Turn on'}
              </Button>
              <Button type="button" variant="outline" onClick={onCancel} disabled={confirm.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </div>
      </div>
    </div>
  )
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="space-y-3 rounded-lg border border-amber-200 bg-amber-50 p-4">
      <h4 className="font-semibold text-slate-900">Save your recovery codes</h4>
      <p className="text-sm text-slate-700">
        If you lose your phone, each of these codes signs you in once. They are shown only now: keep them somewhere
        safe.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm sm:grid-cols-5">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            copyText(codes.join('\n')).then(
              () => toast({ title: 'Recovery codes copied' }),
              () =>
                toast({
                  variant: 'destructive',
                  title: 'Could not copy',
                  description: 'Select the codes and copy them.',
                }),
            )
          }
        >
          Copy codes
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  )
}

function DisableDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const [useCode, setUseCode] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const mutation = useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => {
      setValue('')
      onDone()
    },
    onError: (e) => setError(serverMessage(e) || 'An unexpected error occurred'),
  })
  const close = () => {
    if (mutation.isPending) return
    setValue('')
    setError(undefined)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!value.trim()) {
      setError(useCode ? 'Enter a code from your authenticator app or a recovery code' : 'Enter your password')
      return
    }
    setError(undefined)
    mutation.mutate(useCode ? { code: value } : { password: value })
  }
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Turn off two-factor sign-in</DialogTitle>
          <DialogDescription>
            Signing in will need only your password. Your other sessions will be logged out.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="mt-5 space-y-4">
          <Field label={useCode ? 'Authentication or recovery code' : 'Password'} error={error}>
            {(ids) => (
              <Input
                {...ids}
                key={String(useCode)}
                type={useCode ? 'text' : 'password'}
                autoComplete={useCode ? 'one-time-code' : 'current-password'}
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            )}
          </Field>
          <button
            type="button"
            className="text-sm font-medium text-brand-700 hover:underline"
            onClick={() => {
              setUseCode(!useCode)
              setValue('')
              setError(undefined)
            }}
          >
            {useCode ? 'Use your password instead' : 'Use a code instead'}
          </button>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={mutation.isPending}>
              {mutation.isPending ? 'Turning off…' : 'Turn off'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function RegenerateDialog({
  open,
  onClose,
  onDone,
}: {
  open: boolean
  onClose: () => void
  onDone: (codes: string[]) => void
}) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()
  const mutation = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: (codes) => {
      setCode('')
      onDone(codes)
    },
    onError: (e) => setError(serverMessage(e) || 'An unexpected error occurred'),
  })
  const close = () => {
    if (mutation.isPending) return
    setCode('')
    setError(undefined)
    onClose()
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!isCode(code)) {
      setError(codeError)
      return
    }
    setError(undefined)
    mutation.mutate(code)
  }
  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New recovery codes</DialogTitle>
          <DialogDescription>Ten new codes replace your old ones, which stop working.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="mt-5 space-y-4">
          <Field label="Code from your authenticator app" error={error}>
            {(ids) => (
              <Input
                {...ids}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? 'Making codes…' : 'Make new codes'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
