import { useState } from 'react'
import { useForm } from 'react-hook-form'
// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { matchingPasswords, passwordSchema, repeatedPasswordSchema } from '@/lib/accountFields'
import { serverMessage } from '@/lib/api'
import type { Rules } from '@/lib/rules'
import { useRulesResolver } from '@/lib/rulesResolver'
import { changePassword, type ChangePasswordInput } from '../api/account'
import { accountSecurityKeys } from '../api/accountSecurity'

/**
 * The dialog's checks: the server's account rules and messages (GET
 * /api/rules). The current password is only checked to be long enough to be one.
 */
function changePasswordSchema(all: Rules | undefined) {
  const rules = all?.account
  const passwords = z.object({
    currentPassword: repeatedPasswordSchema(rules),
    newPassword: passwordSchema(rules),
    confirmPassword: repeatedPasswordSchema(rules),
  })
  const repeated = repeatedPasswordSchema(rules)
  return passwords.check(
    // Report a mismatch as soon as both new passwords are long enough.
    matchingPasswords<ChangePasswordInput>(
      rules,
      'newPassword',
      'confirmPassword',
      (values) => repeated.safeParse(values.newPassword).success && repeated.safeParse(values.confirmPassword).success,
    ),
  )
}

const empty: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' }

/** Account Settings' Change Password: a dialog with the current and the new password twice. */
export function ChangePasswordDialog() {
  const [open, setOpen] = useState(false)
  const form = useForm<ChangePasswordInput>({
    resolver: useRulesResolver(changePasswordSchema),
    defaultValues: empty,
  })
  const { errors } = form.formState
  const queryClient = useQueryClient()

  const mutation = useMutation({
    mutationFn: changePassword,
    onSuccess: (envelope) => {
      if (!envelope?.success) {
        toast({
          variant: 'destructive',
          title: 'Password change failed',
          description: (envelope && !envelope.success && envelope.error) || 'An unexpected error occurred',
        })
        return
      }
      toast({ title: 'Password changed', description: 'Your other sessions have been logged out.' })
      void queryClient.invalidateQueries({ queryKey: accountSecurityKeys.sessions })
      setOpen(false)
      form.reset(empty)
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Password change failed',
        description: serverMessage(error) || 'An unexpected error occurred',
      })
    },
  })
  const submitting = mutation.isPending

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (submitting) return
        setOpen(next)
        if (!next) form.reset(empty)
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <KeyRound className="h-4 w-4" aria-hidden />
          Change Password
        </Button>
      </DialogTrigger>
      <DialogContent hideClose={submitting}>
        <DialogHeader>
          <DialogTitle>Change password</DialogTitle>
          <DialogDescription>Your other sessions will be logged out; this one stays signed in.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="mt-5 space-y-4">
          <Field label="Current password" error={errors.currentPassword?.message}>
            {(ids) => (
              <Input {...ids} type="password" autoComplete="current-password" {...form.register('currentPassword')} />
            )}
          </Field>
          <Field label="New password" error={errors.newPassword?.message}>
            {(ids) => <Input {...ids} type="password" autoComplete="new-password" {...form.register('newPassword')} />}
          </Field>
          <Field label="Confirm new password" error={errors.confirmPassword?.message}>
            {(ids) => (
              <Input {...ids} type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
            )}
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)} disabled={submitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={submitting}>
              {submitting ? 'Changing...' : 'Change Password'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
