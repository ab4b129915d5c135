import { useFieldArray, useForm } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Plus, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { CATCH_ALL, addRule, forwardingQueryOptions, ruleAddress } from '../api/forwarding'
import { errorText } from '../forwardingText'

interface RuleFormValues {
  alias: string
  catchAll: boolean
  destinations: Array<{ address: string }>
}

const emptyForm: RuleFormValues = { alias: '', catchAll: false, destinations: [{ address: '' }] }

/**
 * Adds a rule: an alias (or the catch-all) and one or more addresses. The
 * server checks both and says what is wrong; its message shows under the
 * form as it comes, and the form keeps what was typed.
 */
export function AddRuleForm({ domainId, apex }: { domainId: number; apex: string }) {
  const queryClient = useQueryClient()
  const form = useForm<RuleFormValues>({ defaultValues: emptyForm })
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'destinations' })
  const catchAll = form.watch('catchAll')

  const mutation = useMutation({
    mutationFn: (values: RuleFormValues) =>
      addRule(domainId, {
        alias: values.catchAll ? CATCH_ALL : values.alias.trim(),
        // Extra boxes left blank are not addresses; with none filled in the server says one is needed.
        destinations: values.destinations.map((d) => d.address.trim()).filter((address) => address !== ''),
      }),
    onSuccess: (rule) => {
      const waiting = rule.destinations.filter((d) => !d.verified).map((d) => d.address)
      toast({
        title: 'Forwarding rule added',
        description:
          waiting.length > 0
            ? `We emailed a confirmation link to ${waiting.join(', ')}. Mail is forwarded once it is opened.`
            : `Mail to ${ruleAddress(rule.alias, apex)} is forwarded.`,
      })
      form.reset(emptyForm)
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
      <div className="mt-4 grid grid-cols-1 gap-x-6 gap-y-4 md:grid-cols-2">
        <div className="min-w-0 space-y-2">
          <Field label="Alias" hint="The part before the @, such as info or sales.">
            {(ids) => (
              <div className="flex items-center gap-2">
                <Input
                  {...ids}
                  placeholder={catchAll ? CATCH_ALL : 'info'}
                  autoComplete="off"
                  spellCheck={false}
                  disabled={catchAll}
                  className="min-w-[7rem] flex-1"
                  {...form.register('alias')}
                />
                {/* A long name is cut short rather than wrapped; the title has it whole. */}
                <span title={`@${apex}`} className="max-w-[60%] truncate text-sm text-slate-600">
                  @{apex}
                </span>
              </div>
            )}
          </Field>
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
              {...form.register('catchAll')}
            />
            <span>Catch-all: every address at {apex} without a rule of its own</span>
          </label>
        </div>

        <fieldset className="min-w-0 space-y-2">
          <legend className="mb-1.5 block text-sm font-medium text-slate-700">Forward to</legend>
          {fields.map((field, index) => (
            <div key={field.id} className="flex items-center gap-2">
              <Input
                type="email"
                inputMode="email"
                autoComplete="off"
                spellCheck={false}
                placeholder="you@example.com"
                aria-label={`Forward to address ${index + 1}`}
                {...form.register(`destinations.${index}.address`)}
              />
              {fields.length > 1 && (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove address ${index + 1}`}
                  title="Remove"
                  onClick={() => remove(index)}
                >
                  <X className="h-4 w-4" aria-hidden />
                </Button>
              )}
            </div>
          ))}
          <Button variant="ghost" size="sm" className="-ml-2" onClick={() => append({ address: '' })}>
            <Plus className="h-4 w-4" aria-hidden />
            Add another address
          </Button>
        </fieldset>
      </div>

      {mutation.isError && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-700 ring-1 ring-inset ring-red-200">
          {errorText(mutation.error)}
        </p>
      )}
      <div className="mt-4 flex justify-end">
        <Button type="submit" disabled={saving} className="w-full sm:w-auto">
          {saving ? 'Adding...' : 'Add rule'}
        </Button>
      </div>
    </form>
  )
}
