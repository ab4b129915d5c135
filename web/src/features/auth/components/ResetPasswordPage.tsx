import { useForm } from 'react-hook-form'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { LinkIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { matchingPasswords, passwordSchema, repeatedPasswordSchema } from '@/lib/accountFields'
import { useRules, type Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import { currentUserQueryOptions } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { invalidResetLinkMessage, resetPassword } from '../api/passwordReset'
import { AuthCard } from './AuthCard'

/** The new password's checks: the server's account rules and messages (GET /api/rules). */
function resetSchema(all: Rules | undefined) {
  const rules = all?.account
  const passwords = z.object({ newPassword: passwordSchema(rules), confirmPassword: repeatedPasswordSchema(rules) })
  return passwords.check(
    matchingPasswords<ResetInput>(rules, 'newPassword', 'confirmPassword', (values) => passwords.safeParse(values).success),
  )
}

type ResetInput = { newPassword: string; confirmPassword: string }

const backToLogin = (
  <>
    Remembered it?{' '}
    <Link to="/login" className="font-medium text-brand-700 hover:text-brand-800 hover:underline">
      Back to log in
    </Link>
  </>
)

/** The link is unknown, used or expired: say so and offer a new one. */
function InvalidLink() {
  return (
    <AuthCard title="Reset your password" subtitle="This link can no longer be used." footer={backToLogin}>
      <div role="alert" className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
        <LinkIcon className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
        <p>{invalidResetLinkMessage}</p>
      </div>
      <p className="mt-4 text-sm text-slate-600">Reset links work once and expire one hour after we send them.</p>
      <Link to="/forgot-password" className={buttonStyles({ size: 'lg', className: 'mt-6 w-full' })}>
        Ask for a new link
      </Link>
    </AuthCard>
  )
}

export function ResetPasswordPage({ token }: { token?: string }) {
  useDocumentTitle('Reset password')
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<ResetInput>({
    resolver: useRulesResolver(resetSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  })
  const { errors } = form.formState
  const minLength = useRules()?.account.minPasswordLength

  const mutation = useMutation({
    mutationFn: (values: ResetInput) => resetPassword({ token: token ?? '', ...values }),
    onSuccess: async (outcome) => {
      if (outcome.kind === 'ok') {
        // Every session of the account has ended, this browser's included.
        queryClient.setQueryData(currentUserQueryOptions().queryKey, null)
        toast({ title: 'Password changed', description: 'Log in with your new password.' })
        await navigate({ to: '/login' })
        return
      }
      if (outcome.kind === 'refused' && outcome.message === invalidResetLinkMessage) return // shown instead of the form
      toast({
        variant: 'destructive',
        title: 'Password not changed',
        description: outcome.kind === 'refused' ? outcome.message : 'An unexpected error occurred',
      })
    },
  })

  const outcome = mutation.data
  if (!token || (outcome?.kind === 'refused' && outcome.message === invalidResetLinkMessage)) {
    return <InvalidLink />
  }

  const submitting = mutation.isPending || outcome?.kind === 'ok'
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="For your security, this logs your account out on every device. Then log in with the new password."
      footer={backToLogin}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="space-y-5">
        <Field
          label="New password"
          error={errors.newPassword?.message}
          hint={errors.newPassword || minLength === undefined ? undefined : `At least ${minLength} characters.`}
        >
          {(ids) => (
            <Input {...ids} type="password" autoComplete="new-password" autoFocus {...form.register('newPassword')} />
          )}
        </Field>
        <Field label="Confirm new password" error={errors.confirmPassword?.message}>
          {(ids) => (
            <Input {...ids} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
          )}
        </Field>
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {submitting ? 'Saving...' : 'Set new password'}
        </Button>
      </form>
    </AuthCard>
  )
}
