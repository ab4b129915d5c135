import { useState } from 'react'
import { useForm } from 'react-hook-form'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { passwordSchema, usernameSchema } from '@/lib/accountFields'
import { ApiError, serverMessage } from '@/lib/api'
import type { Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import { dashboardPathFor, type User } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { passkeyErrorMessage } from '@/lib/webauthn'
import { login, passkeyLogin, refreshCurrentUser, type LoginInput, type TwoFactorChallenge } from '../api/auth'
import { AuthCard } from './AuthCard'
import { TwoFactorStep } from './TwoFactorStep'

/** The login form's checks: the server's account rules and messages (GET /api/rules), as login applies them. */
function loginSchema(rules: Rules | undefined) {
  return z.object({ username: usernameSchema(rules?.account), password: passwordSchema(rules?.account) })
}

export function LoginForm({ redirect }: { redirect?: string } = {}) {
  useDocumentTitle('Log in')
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<LoginInput>({
    resolver: useRulesResolver(loginSchema),
    defaultValues: { username: '', password: '' },
  })
  const { errors } = form.formState
  // A right password of an account with two-factor sign-in: the second step.
  const [challenge, setChallenge] = useState<TwoFactorChallenge>()

  const signedIn = async (signedInUser: User) => {
    toast({ title: 'Login successful', description: 'Welcome back!' })
    const user = await refreshCurrentUser(queryClient, signedInUser)
    // Back to where the visitor started (a validated path on this site), else their dashboard.
    if (redirect) await navigate({ href: redirect })
    else await navigate({ to: dashboardPathFor(user) })
  }

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: async (outcome) => {
      if (outcome.kind === 'twoFactor') {
        setChallenge(outcome)
        return
      }
      if (outcome.kind !== 'ok') {
        toast({
          variant: 'destructive',
          title: 'Login failed',
          description:
            outcome.kind === 'refused'
              ? outcome.message || 'Invalid username or password'
              : 'An unexpected error occurred',
        })
        return
      }
      await signedIn(outcome.user)
    },
  })
  // A passkey alone: the browser offers this site's passkeys.
  const withPasskey = useMutation({
    mutationFn: passkeyLogin,
    onSuccess: async (outcome) => {
      if (outcome.kind === 'ok') {
        await signedIn(outcome.user)
        return
      }
      toast({
        variant: 'destructive',
        title: 'Passkey sign-in failed',
        description:
          outcome.kind === 'refused'
            ? outcome.message || 'This passkey could not sign you in'
            : 'An unexpected error occurred',
      })
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Passkey sign-in failed',
        description:
          error instanceof ApiError
            ? serverMessage(error) || 'An unexpected error occurred'
            : passkeyErrorMessage(error),
      }),
  })
  const submitting = mutation.isPending || withPasskey.isPending

  if (challenge) {
    return (
      <TwoFactorStep
        challenge={challenge}
        onSignedIn={signedIn}
        onRestart={() => {
          setChallenge(undefined)
          form.setValue('password', '')
        }}
      />
    )
  }

  return (
    <AuthCard
      title="Log in to Nameport"
      subtitle="Welcome back. Manage your domains, DNS and wallet."
      footer={
        <>
          Don't have an account?{' '}
          <Link
            to="/register"
            search={{ redirect }}
            className="font-medium text-brand-700 hover:text-brand-800 hover:underline"
          >
            Register
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="space-y-5">
        <Field label="Username" error={errors.username?.message}>
          {(ids) => <Input {...ids} autoComplete="username" autoFocus {...form.register('username')} />}
        </Field>
        <Field label="Password" error={errors.password?.message}>
          {(ids) => <Input {...ids} type="password" autoComplete="current-password" {...form.register('password')} />}
        </Field>
        <div className="flex justify-end">
          <Link
            to="/forgot-password"
            className="text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline"
          >
            Forgot password?
          </Link>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {mutation.isPending ? 'Logging in...' : 'Log in'}
        </Button>
      </form>
      <div className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500" aria-hidden>
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        disabled={submitting}
        onClick={() => withPasskey.mutate()}
      >
        <KeyRound className="h-4 w-4" aria-hidden />
        {withPasskey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </Button>
    </AuthCard>
  )
}
