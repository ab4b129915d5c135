import { useState } from 'react'
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
import { Field, Input, Select } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { ApiError } from '@/lib/api'
import { useRules } from '@/lib/rules'
import { createRecord, dnsRecordsQueryOptions, RECORD_TYPES, updateRecord, type DnsRecord } from '../api/dns'
import { errorText, fullName } from '../dnsText'
import {
  contentError,
  contentGuide,
  emptyRecordForm,
  formToInput,
  nameError,
  priorityError,
  recordToForm,
  ttlError,
  type RecordFormValues,
} from '../recordForm'

/**
 * A save the server refused because the record's TTL differs from the other
 * records of its name and type: the server's message, their TTL and the
 * one the user asked for.
 */
interface TtlConflict {
  message: string
  setTtl: number
  ttl: number
}

/**
 * Adds a record, or edits `record`. The priority field is there for MX only
 * (spec); an SRV record carries its priority at the front of its content.
 *
 * The records of one name and type share one TTL (the server's rule): when
 * the server refuses a TTL for that, the dialog shows its message and offers
 * to align the whole set to the new TTL (sent again with alignTtl) or to
 * take the set's.
 */
export default function RecordDialog({
  domainId,
  apex,
  record,
  onClose,
}: {
  domainId: number
  apex: string
  record: DnsRecord | null
  onClose: () => void
}) {
  const editing = record !== null
  const queryClient = useQueryClient()
  const ttlBounds = useRules()?.dns
  const form = useForm<RecordFormValues>({ defaultValues: record ? recordToForm(record) : emptyRecordForm })
  const { errors } = form.formState
  const type = form.watch('type')
  const guide = contentGuide[type]

  const [ttlConflict, setTtlConflict] = useState<TtlConflict | null>(null)

  const mutation = useMutation({
    mutationFn: ({ values, alignTtl }: { values: RecordFormValues; alignTtl: boolean }) => {
      const input = formToInput(values)
      if (alignTtl) input.alignTtl = true
      return record ? updateRecord(domainId, record.id, input) : createRecord(domainId, input)
    },
    onMutate: () => setTtlConflict(null),
    onSuccess: (saved, { alignTtl }) => {
      const name = fullName(saved.name, apex)
      toast({
        title: editing ? 'DNS record updated' : 'DNS record added',
        description: alignTtl
          ? `${saved.type} record for ${name}. Every ${saved.type} record of ${name} now has a TTL of ${saved.ttl} seconds.`
          : `${saved.type} record for ${name}.`,
      })
      void queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domainId).queryKey })
      onClose()
    },
    onError: (error, { values }) => {
      if (error instanceof ApiError && error.setTtl !== undefined && error.error) {
        setTtlConflict({ message: error.error, setTtl: error.setTtl, ttl: formToInput(values).ttl ?? 0 })
        return
      }
      // The spec's toast, and the message beside the field the server names.
      toast({
        variant: 'destructive',
        title: editing ? 'Failed to update DNS record' : 'Failed to create DNS record',
        description: errorText(error),
      })
      const field = error instanceof ApiError ? formFieldOf(error.field) : undefined
      if (field && error instanceof ApiError && error.error) {
        form.setError(field, { type: 'server', message: error.error }, { shouldFocus: true })
      }
    },
  })
  const saving = mutation.isPending

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !saving) onClose()
      }}
    >
      <DialogContent hideClose={saving}>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit DNS record' : 'Add DNS record'}</DialogTitle>
          <DialogDescription>
            {editing ? `Change a record of ${apex}.` : `A new record for ${apex} or one of its subdomains.`}
          </DialogDescription>
        </DialogHeader>
        <form
          noValidate
          onSubmit={form.handleSubmit((values) => mutation.mutate({ values, alignTtl: false }))}
          className="mt-5 space-y-4"
        >
          <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
            <Field label="Type" error={errors.type?.message}>
              {(ids) => (
                <Select {...ids} {...form.register('type')}>
                  {typeOptions}
                </Select>
              )}
            </Field>
            <Field
              label="Name"
              error={errors.name?.message}
              hint={
                <>
                  Relative to {apex}: <span className="font-mono">@</span> for {apex} itself,{' '}
                  <span className="font-mono">www</span> for www.{apex}.
                </>
              }
            >
              {(ids) => (
                <Input
                  {...ids}
                  placeholder="@ or www"
                  autoComplete="off"
                  spellCheck={false}
                  {...form.register('name', { validate: (value) => nameError(value) ?? true })}
                />
              )}
            </Field>
          </div>
          <Field label="Content" error={errors.content?.message} hint={guide.hint}>
            {(ids) => (
              <Input
                {...ids}
                placeholder={guide.placeholder}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                {...form.register('content', { validate: (value) => contentError(value) ?? true })}
              />
            )}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="TTL (seconds)"
              error={errors.ttl?.message}
              hint="How long resolvers may cache it; 3600 is an hour."
            >
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  inputMode="numeric"
                  min={ttlBounds?.minTtl}
                  max={ttlBounds?.maxTtl}
                  step={1}
                  {...form.register('ttl', {
                    validate: (value) => ttlError(value, ttlBounds) ?? true,
                    onChange: () => setTtlConflict(null),
                  })}
                />
              )}
            </Field>
            {type === 'MX' && (
              <Field label="Priority" error={errors.priority?.message} hint="Lower is tried first, e.g. 10.">
                {(ids) => (
                  <Input
                    {...ids}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={65535}
                    step={1}
                    {...form.register('priority', {
                      validate: (value, values) => priorityError(value, values.type) ?? true,
                    })}
                  />
                )}
              </Field>
            )}
          </div>
          {ttlConflict && (
            <div
              role="alert"
              className="space-y-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
            >
              <p>{ttlConflict.message}</p>
              <div className="flex flex-wrap gap-2">
                <Button
                  size="sm"
                  disabled={saving}
                  onClick={() => void form.handleSubmit((values) => mutation.mutate({ values, alignTtl: true }))()}
                >
                  Align all to {ttlConflict.ttl}
                </Button>
                {/* The same TTL refused: the set's records differ among themselves, and only aligning helps. */}
                {ttlConflict.setTtl !== ttlConflict.ttl && (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={saving}
                    onClick={() => {
                      form.setValue('ttl', String(ttlConflict.setTtl), { shouldValidate: true })
                      setTtlConflict(null)
                    }}
                  >
                    Use {ttlConflict.setTtl}
                  </Button>
                )}
              </div>
            </div>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : editing ? 'Save changes' : 'Save record'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** The form field of a field the server named, if the form has it. */
function formFieldOf(field: string | undefined): keyof RecordFormValues | undefined {
  return field && formFields.includes(field as keyof RecordFormValues) ? (field as keyof RecordFormValues) : undefined
}
const formFields: (keyof RecordFormValues)[] = ['type', 'name', 'content', 'ttl', 'priority']

const typeOptions = RECORD_TYPES.map((type) => (
  <option key={type} value={type}>
    {type}
  </option>
))
