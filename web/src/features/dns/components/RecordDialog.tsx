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
 * Adds a record, or edits `record`. The priority field is there for MX only
 * (spec); an SRV record carries its priority at the front of its content.
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

  const mutation = useMutation({
    mutationFn: (values: RecordFormValues) => {
      const input = formToInput(values)
      return record ? updateRecord(domainId, record.id, input) : createRecord(domainId, input)
    },
    onSuccess: (saved) => {
      toast({
        title: editing ? 'DNS record updated' : 'DNS record added',
        description: `${saved.type} record for ${fullName(saved.name, apex)}.`,
      })
      void queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domainId).queryKey })
      onClose()
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: editing ? 'Failed to update DNS record' : 'Failed to create DNS record',
        description: errorText(error),
      })
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
        <form noValidate onSubmit={form.handleSubmit((values) => mutation.mutate(values))} className="mt-5 space-y-4">
          <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
            <Field label="Type">
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
                  {...form.register('ttl', { validate: (value) => ttlError(value, ttlBounds) ?? true })}
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

const typeOptions = RECORD_TYPES.map((type) => (
  <option key={type} value={type}>
    {type}
  </option>
))
