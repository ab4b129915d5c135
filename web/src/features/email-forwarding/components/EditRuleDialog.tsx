import { useForm } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { toast } from '@/components/toast/toastStore'
import { ApiError } from '@/lib/api'
import { forwardingQueryOptions, ruleAddress, updateRule, type ForwardingRule } from '../api/forwarding'
import { RuleError, RuleFields, ruleFormValues, ruleInput, type RuleFormValues } from './RuleFields'

/**
 * Changes a rule (null: closed) in the fields of adding one, filled in with
 * what it has. Save sends all of it at once; the server checks it as it
 * checks a new rule, and its refusal shows in the dialog as it comes.
 */
export function EditRuleDialog({
  domainId,
  apex,
  rule,
  onClose,
}: {
  domainId: number
  apex: string
  rule: ForwardingRule | null
  onClose: () => void
}) {
  const queryClient = useQueryClient()
  const statusQuery = forwardingQueryOptions(domainId)
  const save = useMutation({
    mutationFn: ({ id, values }: { id: number; values: RuleFormValues }) => updateRule(domainId, id, ruleInput(values)),
    onSuccess: (saved) => {
      const waiting = saved.destinations.filter((d) => !d.verified).map((d) => d.address)
      toast({
        title: 'Forwarding rule saved',
        description:
          waiting.length > 0
            ? `Mail reaches ${waiting.join(', ')} once the confirmation link we emailed is opened.`
            : `Mail to ${ruleAddress(saved.alias, apex)} is forwarded.`,
      })
      onClose()
      void queryClient.invalidateQueries(statusQuery)
    },
    onError: (error) => {
      // A 404: the rule was deleted elsewhere; reloading takes it off the list.
      if (error instanceof ApiError && error.status === 404) void queryClient.invalidateQueries(statusQuery)
    },
  })

  const close = () => {
    if (save.isPending) return
    save.reset()
    onClose()
  }

  return (
    <Dialog open={rule !== null} onOpenChange={(next) => !next && close()}>
      <DialogContent hideClose={save.isPending}>
        {rule && (
          <EditRuleForm
            key={rule.id}
            rule={rule}
            apex={apex}
            saving={save.isPending}
            error={save.isError ? save.error : null}
            onCancel={close}
            onSave={(values) => save.mutate({ id: rule.id, values })}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function EditRuleForm({
  rule,
  apex,
  saving,
  error,
  onCancel,
  onSave,
}: {
  rule: ForwardingRule
  apex: string
  saving: boolean
  error: unknown
  onCancel: () => void
  onSave: (values: RuleFormValues) => void
}) {
  const form = useForm<RuleFormValues>({ defaultValues: ruleFormValues(rule) })
  const address = ruleAddress(rule.alias, apex)
  return (
    <form noValidate aria-label={`Edit the rule for ${address}`} onSubmit={form.handleSubmit(onSave)}>
      <DialogHeader>
        <DialogTitle className="break-words">Edit the rule for {address}</DialogTitle>
        <DialogDescription>
          Save gives the rule these addresses from now on. A new address gets a confirmation link; confirmed ones stay
          confirmed.
        </DialogDescription>
      </DialogHeader>
      <RuleFields form={form} apex={apex} className="mt-5" />
      {error !== null && <RuleError error={error} />}
      <DialogFooter>
        <Button variant="outline" disabled={saving} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  )
}
