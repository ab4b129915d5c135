import { useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import type { User } from '@/lib/session'
import { ApiError, serverMessage } from '@/lib/api'
import { passkeyErrorMessage } from '@/lib/webauthn'
import { finishTwoFactor, finishTwoFactorWithPasskey, type TwoFactorChallenge } from '../api/auth'
import { AuthCard } from './AuthCard'

type Method = 'totp' | 'recovery' | 'passkey'

/** What a code of method must look like before it is sent; the server checks the same. */
function formatError(method: Method, code: string): string | undefined {
  if (method === 'passkey') return undefined
  const compact = code.replace(/[\s-]/g, '')
  if (method === 'totp') {
    return /^\d{6}$/.test(compact) ? undefined : 'Enter the 6-digit code from your authenticator app'
  }
  return /^[a-z2-9]{10}$/i.test(compact) ? undefined : 'A recovery code has 10 letters and digits, like abcde-23fgh'
}

/**
 * The second step of a login: a code from the authenticator app, a
 * recovery code, or one of the account's passkeys. A refused code stays on this step; an expired or spent
 * challenge goes back to the password (onRestart).
 */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: TwoFactorChallenge
  onSignedIn: (user: User) => Promise<void> | void
  onRestart: () => void
}) {
  const [method, setMethod] = useState<Method>(
    challenge.methods.includes('totp') ? 'totp' : challenge.methods.includes('passkey') ? 'passkey' : 'recovery',
  )
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()

  const mutation = useMutation({
    mutationFn: (input: { method: Method; code: string }) =>
      input.method === 'passkey'
        ? finishTwoFactorWithPasskey(challenge.pendingToken)
        : finishTwoFactor({ pendingToken: challenge.pendingToken, ...input }),
    onError: (e) =>
      setError(e instanceof ApiError ? serverMessage(e) || 'An unexpected error occurred' : passkeyErrorMessage(e)),
    onSuccess: async (outcome) => {
      if (outcome.kind === 'ok') {
        await onSignedIn(outcome.user)
        return
      }
      const message = outcome.kind === 'refused' ? outcome.message || 'Invalid code' : 'An unexpected error occurred'
      setError(message)
      if (/log in again/i.test(message)) {
        toast({ variant: 'destructive', title: 'Login failed', description: message })
        onRestart()
      }
    },
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problem = formatError(method, code)
    setError(problem)
    if (problem) return
    mutation.mutate({ method, code })
  }

  const switchTo = (next: Method) => {
    setMethod(next)
    setCode('')
    setError(undefined)
  }

  return (
    <AuthCard
      title="Two-factor authentication"
      subtitle={
        method === 'totp'
          ? 'Enter the 6-digit code from your authenticator app.'
          : method === 'passkey'
            ? 'Confirm the sign-in with one of your passkeys.'
            : 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
      }
      footer={
        <button type="button" onClick={onRestart} className="font-medium text-brand-700 hover:underline">
          Back to log in
        </button>
      }
    >
      {method === 'passkey' ? (
        <div className="space-y-5">
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
          <Button
            type="button"
            size="lg"
            className="w-full"
            disabled={mutation.isPending}
            onClick={() => {
              setError(undefined)
              mutation.mutate({ method: 'passkey', code: '' })
            }}
          >
            <KeyRound className="h-4 w-4" aria-hidden />
            {mutation.isPending ? 'Waiting for your passkey…' : 'Use your passkey'}
          </Button>
          <OtherMethods methods={challenge.methods} current={method} onSwitch={switchTo} />
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-5">
          <Field label={method === 'totp' ? 'Authentication code' : 'Recovery code'} error={error}>
            {(ids) => (
              <Input
                {...ids}
                key={method}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoFocus
                autoComplete="one-time-code"
                inputMode={method === 'totp' ? 'numeric' : 'text'}
                placeholder={method === 'totp' ? '123456' : 'abcde-23fgh'}
                maxLength={method === 'totp' ? 7 : 11}
                className="font-mono tracking-widest"
              />
            )}
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={mutation.isPending}>
            {mutation.isPending ? 'Verifying...' : 'Verify'}
          </Button>
          <OtherMethods methods={challenge.methods} current={method} onSwitch={switchTo} />
        </form>
      )}
    </AuthCard>
  )
}

const switchLabels: Record<Method, string> = {
  totp: 'Use your authenticator app instead',
  recovery: 'Use a recovery code instead',
  passkey: 'Use a passkey instead',
}

/** Links to the challenge's other methods. */
function OtherMethods({
  methods,
  current,
  onSwitch,
}: {
  methods: string[]
  current: Method
  onSwitch: (method: Method) => void
}) {
  const others = (['totp', 'passkey', 'recovery'] as const).filter((m) => m !== current && methods.includes(m))
  if (others.length === 0) return null
  return (
    <div className="flex flex-col items-center gap-2">
      {others.map((m) => (
        <button
          key={m}
          type="button"
          onClick={() => onSwitch(m)}
          className="text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline"
        >
          {switchLabels[m]}
        </button>
      ))}
    </div>
  )
}
