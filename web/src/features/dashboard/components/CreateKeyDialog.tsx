import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, Input, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { keyErrorText, SCOPES, useCreateApiKey, type ApiKeyRequest, type NewApiKey, type Scope } from '../api/apiKeys'
import { DialogFormActions, DialogFormError } from './DialogFormActions'

interface CreateKeyValues {
  name: string
  scopes: Scope[]
  allowed: string
  /** A date (YYYY-MM-DD), or empty for a key that never expires. */
  expires: string
}

const nameRequired = 'Give the key a name, such as the program that will use it'
const scopeRequired = 'Choose at least one scope'

/** A local calendar date as a date input holds it: YYYY-MM-DD. */
function dateValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/**
 * The request the dialog sends: addresses one a line (or comma-separated),
 * and the expiry at the start of the chosen day, the user's time. The server
 * judges the addresses and the date.
 */
export function keyRequest(values: CreateKeyValues): ApiKeyRequest {
  const allowedAddresses = values.allowed
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter(Boolean)
  const request: ApiKeyRequest = { name: values.name.trim(), scopes: values.scopes }
  if (allowedAddresses.length > 0) request.allowedAddresses = allowedAddresses
  if (values.expires) request.expiresAt = new Date(`${values.expires}T00:00:00`).toISOString()
  return request
}

/** Makes an API key: its name, scopes, allowed addresses and expiry. The server's refusals show in the dialog. */
export function CreateKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (key: NewApiKey) => void }) {
  const create = useCreateApiKey()
  const form = useForm<CreateKeyValues>({ defaultValues: { name: '', scopes: ['read'], allowed: '', expires: '' } })
  const { errors } = form.formState
  const saving = create.isPending
  const scopesId = useId()
  const tomorrow = new Date()
  tomorrow.setDate(tomorrow.getDate() + 1)

  const submit = form.handleSubmit((values) =>
    create.mutate(keyRequest(values), {
      onSuccess: (key) => {
        toast({ title: 'API key created', description: `${key.key.name} is ready: copy its secret now.` })
        onCreated(key)
      },
    }),
  )

  return (
    <Dialog open onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent hideClose={saving}>
        <form noValidate aria-label="Create API key" onSubmit={submit}>
          <DialogHeader>
            <DialogTitle>Create API key</DialogTitle>
            <DialogDescription>Its secret is shown once, when it is made.</DialogDescription>
          </DialogHeader>

          <div className="mt-5 space-y-5">
            <Field label="Name" error={errors.name?.message}>
              {(ids) => (
                <Input
                  {...ids}
                  placeholder="CI deploys"
                  autoComplete="off"
                  maxLength={64}
                  {...form.register('name', { validate: (value) => value.trim() !== '' || nameRequired })}
                />
              )}
            </Field>

            <fieldset aria-describedby={errors.scopes ? `${scopesId}-error` : undefined}>
              <legend className="text-sm font-medium text-slate-700">Scopes</legend>
              <p className="text-xs text-slate-500">What the key may do. Give it only what its program needs.</p>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {SCOPES.map(({ scope, label, allows }) => (
                  <label
                    key={scope}
                    className="flex cursor-pointer items-start gap-2 rounded-lg p-2.5 text-sm ring-1 ring-inset ring-slate-200 has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-300"
                  >
                    <input
                      type="checkbox"
                      value={scope}
                      className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                      {...form.register('scopes', { validate: (value) => value.length > 0 || scopeRequired })}
                    />
                    <span>
                      <span className="block font-medium text-slate-800">{label}</span>
                      <span className="block text-xs text-slate-500">{allows}</span>
                    </span>
                  </label>
                ))}
              </div>
              {errors.scopes && (
                <p id={`${scopesId}-error`} role="alert" className="mt-1.5 text-sm text-red-600">
                  {errors.scopes.message}
                </p>
              )}
            </fieldset>

            <Field
              label="Allowed addresses (optional)"
              hint="IPv4 or IPv6 addresses or prefixes, one a line, such as 203.0.113.7 or 2001:db8::/32. Empty: from anywhere."
            >
              {(ids) => (
                <Textarea
                  {...ids}
                  rows={3}
                  spellCheck={false}
                  autoComplete="off"
                  placeholder={'203.0.113.0/24\n2001:db8::/32'}
                  className="font-mono"
                  {...form.register('allowed')}
                />
              )}
            </Field>

            <Field label="Expires on (optional)" hint="The key stops working at the start of this day. Empty: never.">
              {(ids) => <Input {...ids} type="date" min={dateValue(tomorrow)} {...form.register('expires')} />}
            </Field>

            <DialogFormError message={create.isError ? keyErrorText(create.error) : undefined} />
          </div>

          <DialogFormActions saving={saving} label="Create key" savingLabel="Creating..." onCancel={onClose} />
        </form>
      </DialogContent>
    </Dialog>
  )
}
