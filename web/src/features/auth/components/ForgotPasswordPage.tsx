import { useForm } from 'react-hook-form'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link } from '@tanstack/react-router'
import { useMutation } from '@tanstack/react-query'
import { MailCheck } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { emailSchema } from '@/lib/accountFields'
import type { Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { requestPasswordReset } from '../api/passwordReset'
import { AuthCard } from './AuthCard'

/** The address is checked as the server checks it, with its message (GET /api/rules). */
function forgotSchema(rules: Rules | undefined) {
  return z.object({ email: emailSchema(rules?.account) })
}

type ForgotInput = { email: string }

const backToLogin = (
  <>
    Remembered it?{' '}
    <Link to="/login" className="font-medium text-brand-700 hover:text-brand-800 hover:underline">
      Back to log in
    </Link>
  </>
)

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password')
  const form = useForm<ForgotInput>({ resolver: useRulesResolver(forgotSchema), defaultValues: { email: '' } })
  const { errors } = form.formState

  const mutation = useMutation({
    mutationFn: (values: ForgotInput) => requestPasswordReset(values.email),
    onSuccess: (outcome) => {
      if (outcome.kind === 'ok') return
      toast({
        variant: 'destructive',
        title: 'Could not send the reset link',
        description: outcome.kind === 'refused' ? outcome.message : 'An unexpected error occurred',
      })
    },
  })

  if (mutation.data?.kind === 'ok') {
    return (
      <AuthCard
        title="Check your email"
        subtitle="A reset link is on its way."
        footer={
          <>
            Still locked out?{' '}
            <Link to="/" hash="contact" className="font-medium text-brand-700 hover:text-brand-800 hover:underline">
              Contact us
            </Link>
          </>
        }
      >
        <div
          role="status"
          className="flex gap-3 rounded-xl bg-brand-50 p-4 text-sm text-slate-700 ring-1 ring-brand-100"
        >
          <MailCheck className="h-5 w-5 shrink-0 text-brand-600" aria-hidden />
          <p>If an account exists for that email, we've sent a link to reset your password. It expires in one hour.</p>
        </div>
        <p className="mt-4 text-sm text-slate-600">
          Nothing arrived after a few minutes? Check your spam folder, or{' '}
          <button
            type="button"
            onClick={() => mutation.reset()}
            className="font-medium text-brand-700 hover:text-brand-800 hover:underline"
          >
            try another email address
          </button>
          .
        </p>
        <Link to="/login" className={buttonStyles({ size: 'lg', className: 'mt-6 w-full' })}>
          Back to log in
        </Link>
      </AuthCard>
    )
  }

  const submitting = mutation.isPending
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we'll send you a link to choose a new password."
      footer={backToLogin}
    >
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="space-y-5">
        <Field label="Email" error={errors.email?.message}>
          {(ids) => <Input {...ids} type="email" autoComplete="email" autoFocus {...form.register('email')} />}
        </Field>
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {submitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
    </AuthCard>
  )
}
