import { useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import type { User } from '@/lib/session'
import { finishTwoFactor, type TwoFactorChallenge } from '../api/auth'
import { AuthCard } from './AuthCard'

type Method = 'totp' | 'recovery'

/** What a code of method must look like before it is sent; the server checks the same. */
function formatError(method: Method, code: string): string | undefined {
  const compact = code.replace(/[\s-]/g, '')
  if (method === 'totp') {
    return /^\d{6}$/.test(compact) ? undefined : 'Enter the 6-digit code from your authenticator app'
  }
  return /^[a-z2-9]{10}$/i.test(compact) ? undefined : 'A recovery code has 10 letters and digits, like abcde-23fgh'
}

/**
 * The second step of a login: a code from the authenticator app, or a
 * recovery code. A refused code stays on this step; an expired or spent
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
  const [method, setMethod] = useState<Method>(challenge.methods.includes('totp') ? 'totp' : 'recovery')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string>()

  const mutation = useMutation({
    mutationFn: finishTwoFactor,
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
    mutation.mutate({ pendingToken: challenge.pendingToken, method, code })
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
          : 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
      }
      footer={
        <button type="button" onClick={onRestart} className="font-medium text-brand-700 hover:underline">
          Back to log in
        </button>
      }
    >
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
        {challenge.methods.includes('recovery') && challenge.methods.includes('totp') && (
          <div className="text-center">
            <button
              type="button"
              onClick={() => switchTo(method === 'totp' ? 'recovery' : 'totp')}
              className="text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline"
            >
              {method === 'totp' ? 'Use a recovery code instead' : 'Use your authenticator app instead'}
            </button>
          </div>
        )}
      </form>
    </AuthCard>
  )
}
