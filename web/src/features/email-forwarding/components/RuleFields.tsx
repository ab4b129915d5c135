import { useFieldArray, type UseFormReturn } from 'react-hook-form'
import { Plus, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { cx } from '@/lib/classNames'
import type { Schema } from '@/lib/schemas'
import { CATCH_ALL, type ForwardingRule } from '../api/forwarding'
import { errorText } from '../forwardingText'

export interface RuleFormValues {
  alias: string
  catchAll: boolean
  destinations: Array<{ address: string }>
}

/** The form's values for a rule: its alias (or the catch-all) and its addresses; empty for a new one. */
export function ruleFormValues(rule?: ForwardingRule): RuleFormValues {
  if (!rule) return { alias: '', catchAll: false, destinations: [{ address: '' }] }
  const catchAll = rule.alias === CATCH_ALL
  return {
    alias: catchAll ? '' : rule.alias,
    catchAll,
    destinations: rule.destinations.map((d) => ({ address: d.address })),
  }
}

/** The body adding or changing a rule sends: the server checks it, not the form. */
export function ruleInput(values: RuleFormValues): Required<Schema<'ForwardingRuleCreateInputBody'>> {
  return {
    alias: values.catchAll ? CATCH_ALL : values.alias.trim(),
    // Extra boxes left blank are not addresses; with none filled in the server says one is needed.
    destinations: values.destinations.map((d) => d.address.trim()).filter((address) => address !== ''),
  }
}

/**
 * A rule's fields, shared by adding and editing: the alias or the
 * catch-all, and one or more addresses to forward to. `className` lays the
 * two groups out (side by side in the tab, stacked in a dialog).
 */
export function RuleFields({
  form,
  apex,
  className,
}: {
  form: UseFormReturn<RuleFormValues>
  apex: string
  className?: string
}) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'destinations' })
  const catchAll = form.watch('catchAll')

  return (
    <div className={cx('grid grid-cols-1 gap-x-6 gap-y-4', className)}>
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
  )
}

/** The server's refusal of a rule, word for word, under the form that sent it. */
export function RuleError({ error }: { error: unknown }) {
  return (
    <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-700 ring-1 ring-inset ring-red-200">
      {errorText(error)}
    </p>
  )
}
