import { useForm } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/toast/toastStore'
import { addRule, forwardingQueryOptions, ruleAddress } from '../api/forwarding'
import { RuleError, RuleFields, ruleFormValues, ruleInput, type RuleFormValues } from './RuleFields'

/**
 * Adds a rule: an alias (or the catch-all) and one or more addresses. The
 * server checks both and says what is wrong; its message shows under the
 * form as it comes, and the form keeps what was typed.
 */
export function AddRuleForm({ domainId, apex }: { domainId: number; apex: string }) {
  const queryClient = useQueryClient()
  const form = useForm<RuleFormValues>({ defaultValues: ruleFormValues() })

  const mutation = useMutation({
    mutationFn: (values: RuleFormValues) => addRule(domainId, ruleInput(values)),
    onSuccess: (rule) => {
      const waiting = rule.destinations.filter((d) => !d.verified).map((d) => d.address)
      toast({
        title: 'Forwarding rule added',
        description:
          waiting.length > 0
            ? `We emailed a confirmation link to ${waiting.join(', ')}. Mail is forwarded once it is opened.`
            : `Mail to ${ruleAddress(rule.alias, apex)} is forwarded.`,
      })
      form.reset(ruleFormValues())
      void queryClient.invalidateQueries(forwardingQueryOptions(domainId))
    },
  })
  const saving = mutation.isPending

  return (
    <form
      noValidate
      aria-label="Add a forwarding rule"
      onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
      className="mt-6 border-t border-slate-200 pt-6"
    >
      <h3 className="text-sm font-semibold text-slate-900">Add a rule</h3>
      <RuleFields form={form} apex={apex} className="mt-4 md:grid-cols-2" />

      {mutation.isError && <RuleError error={mutation.error} />}
      <div className="mt-4 flex justify-end">
        <Button type="submit" disabled={saving} className="w-full sm:w-auto">
          {saving ? 'Adding...' : 'Add rule'}
        </Button>
      </div>
    </form>
  )
}
