import { useForm } from 'react-hook-form'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { Link, useNavigate } from '@tanstack/react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Building2, User as UserIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input, Select } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import {
  emailSchema,
  fullNameSchema,
  matchingPasswords,
  passwordSchema,
  repeatedPasswordSchema,
  usernameSchema,
} from '@/lib/accountFields'
import { cx } from '@/lib/classNames'
import { allowanceText, useRegistrarTiers } from '@/lib/registrarTiers'
import type { Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import { dashboardPathFor, type RegistrarTier } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { refreshCurrentUser, register as registerAccount, type RegisterInput } from '../api/auth'
import { AuthCard } from './AuthCard'

/** The sign-up form's checks: the server's account rules (GET /api/rules) and messages. */
function registerSchema(all: Rules | undefined) {
  const rules = all?.account
  const passwords = z.object({ password: passwordSchema(rules), confirmPassword: repeatedPasswordSchema(rules) })
  return z
    .extend(
      z.object({
        fullName: fullNameSchema(rules),
        username: usernameSchema(rules, { forSignUp: true }),
        email: emailSchema(rules),
        userType: z.enum(['user', 'registrar']),
        // The server says which tiers exist (GET /api/rules) and refuses others.
        tier: z.optional(z.custom<RegistrarTier>((value) => typeof value === 'string')),
      }),
      passwords.shape,
    )
    .check(
      matchingPasswords<RegisterInput>(rules, 'password', 'confirmPassword', (values) => passwords.safeParse(values).success),
    )
}

const accountTypes = [
  {
    value: 'user',
    label: 'End User',
    description: 'Register domains for yourself or your organisation.',
    icon: UserIcon,
  },
  {
    value: 'registrar',
    label: 'Registrar Partner',
    description: 'Resell domains with wholesale pricing and API access.',
    icon: Building2,
  },
] as const

export function RegisterForm({
  type,
  tier,
  redirect,
}: {
  type: 'user' | 'registrar'
  tier?: RegistrarTier
  redirect?: string
}) {
  useDocumentTitle('Register')
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<RegisterInput>({
    resolver: useRulesResolver(registerSchema),
    defaultValues: {
      fullName: '',
      username: '',
      email: '',
      password: '',
      confirmPassword: '',
      userType: type,
      tier: tier ?? 'basic',
    },
  })
  const { errors } = form.formState
  const userType = form.watch('userType')
  const { tiers, tierOf } = useRegistrarTiers()
  // Every account starts on the first tier; a higher one is granted after review.
  const startingTier = tiers[0]?.key ?? 'basic'
  const selectedTier = form.watch('tier') ?? startingTier
  const selected = tierOf(selectedTier)
  const requestedTier = userType === 'registrar' ? selectedTier : startingTier

  const mutation = useMutation({
    mutationFn: registerAccount,
    onSuccess: async (outcome) => {
      if (outcome.kind !== 'ok') {
        toast({
          variant: 'destructive',
          title: 'Registration failed',
          description:
            outcome.kind === 'refused' ? outcome.message || 'Failed to create account' : 'An unexpected error occurred',
        })
        return
      }
      // The server starts the account on a lower tier than asked for while the application waits.
      const applied = outcome.user.userType === 'registrar' && requestedTier !== outcome.user.tier
      toast({
        title: 'Registration successful',
        description: applied
          ? `Your account has been created! Your ${tierOf(requestedTier)?.name ?? requestedTier} tier application is pending review.`
          : 'Your account has been created!',
      })
      const user = await refreshCurrentUser(queryClient, outcome.user)
      // Back to where the visitor started (a validated path on this site), else their dashboard.
      if (redirect) await navigate({ href: redirect })
      else await navigate({ to: dashboardPathFor(user) })
    },
  })
  const submitting = mutation.isPending

  return (
    <AuthCard
      wide
      title="Create your account"
      subtitle="Register domains under .inf.nz, .biz.ee and .orgn.uk, or become a registrar partner."
      footer={
        <>
          Already have an account?{' '}
          <Link
            to="/login"
            search={{ redirect }}
            className="font-medium text-brand-700 hover:text-brand-800 hover:underline"
          >
            Log in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="space-y-5">
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Account type</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {accountTypes.map(({ value, label, description, icon: Icon }) => (
              <label
                key={value}
                className={cx(
                  'relative flex cursor-pointer gap-3 rounded-xl border p-4 transition focus-within:ring-2 focus-within:ring-brand-500',
                  userType === value
                    ? 'border-brand-500 bg-brand-50/60 ring-1 ring-brand-500'
                    : 'border-slate-200 hover:border-slate-300',
                )}
              >
                <input type="radio" value={value} className="sr-only" {...form.register('userType')} />
                <Icon
                  className={cx('mt-0.5 h-5 w-5 shrink-0', userType === value ? 'text-brand-600' : 'text-slate-400')}
                  aria-hidden
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{label}</span>
                  <span className="mt-0.5 block text-xs text-slate-600">{description}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {/* Rendered once the tiers are known, so the select shows the tier the form holds. */}
        {userType === 'registrar' && tiers.length > 0 && (
          <Field
            label="Partnership tier"
            hint={selected && `${allowanceText(selected)}, at $${selected.pricePerDomain} per domain per year.`}
          >
            {(ids) => (
              <Select {...ids} {...form.register('tier')}>
                {tiers.map((tier) => (
                  <option key={tier.key} value={tier.key}>
                    {tier.name} (${tier.pricePerDomain} per domain)
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        {userType === 'registrar' && selected && selectedTier !== startingTier && (
          <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            The {selected.name} tier is granted after review: your account starts on the {tiers[0]?.name} tier
            and your application stays pending until our team approves it. We will email you the decision.
          </p>
        )}

        <Field label="Full name" error={errors.fullName?.message}>
          {(ids) => <Input {...ids} autoComplete="name" {...form.register('fullName')} />}
        </Field>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Username" error={errors.username?.message}>
            {(ids) => <Input {...ids} autoComplete="username" {...form.register('username')} />}
          </Field>
          <Field label="Email" error={errors.email?.message}>
            {(ids) => <Input {...ids} type="email" autoComplete="email" {...form.register('email')} />}
          </Field>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Password" error={errors.password?.message}>
            {(ids) => <Input {...ids} type="password" autoComplete="new-password" {...form.register('password')} />}
          </Field>
          <Field label="Confirm password" error={errors.confirmPassword?.message}>
            {(ids) => (
              <Input {...ids} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
            )}
          </Field>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {submitting ? 'Creating Account...' : 'Create Account'}
        </Button>
      </form>
    </AuthCard>
  )
}
