import { useState, type ReactNode } from 'react'
import { useForm, type UseFormRegister } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { serverMessage } from '@/lib/api'
import { cx } from '@/lib/classNames'
import {
  adminExtensionsQueryKey,
  adminExtensionsQueryOptions,
  createExtension,
  deleteExtension,
  DNS_PROVIDERS,
  parseList,
  updateExtension,
  withDot,
  withoutDot,
  type AdminExtension,
  type ExtensionInput,
} from '../api/extensions'
import { ConfirmDelete } from './ConfirmDelete'

/** The advanced form's values; lists are edited one entry per line, numbers as text. */
interface Values {
  extension: string
  active: boolean
  basePrice: string
  description: string
  dnsNameservers: string
  dnsProvider: string
  dnsApiKey: string
  dnsApiSecret: string
  dnsZoneId: string
  requiresVerification: boolean
  verificationDocuments: string
  verificationInstructions: string
  adminEmail: string
  technicalEmail: string
  billingEmail: string
  whoisPrivacyEnabled: boolean
  renewalPrice: string
  renewalPeriodDays: string
  gracePeriodDays: string
  minNameLength: string
  maxNameLength: string
  allowedCharacters: string
  allowsSubdomains: boolean
  allowsDnsManagement: boolean
  allowsEmailForwarding: boolean
}

// Spec section 9: advanced defaults.
const newValues: Values = {
  extension: '',
  active: true,
  basePrice: '8',
  description: '',
  dnsNameservers: '',
  dnsProvider: 'custom',
  dnsApiKey: '',
  dnsApiSecret: '',
  dnsZoneId: '',
  requiresVerification: false,
  verificationDocuments: '',
  verificationInstructions: '',
  adminEmail: '',
  technicalEmail: '',
  billingEmail: '',
  whoisPrivacyEnabled: true,
  renewalPrice: '',
  renewalPeriodDays: '365',
  gracePeriodDays: '30',
  minNameLength: '3',
  maxNameLength: '63',
  allowedCharacters: 'a-z0-9-',
  allowsSubdomains: true,
  allowsDnsManagement: true,
  allowsEmailForwarding: true,
}

function valuesOf(e: AdminExtension): Values {
  return {
    extension: withoutDot(e.extension),
    active: e.active,
    basePrice: String(e.basePrice),
    description: e.description,
    dnsNameservers: (e.dnsNameservers ?? []).join('\n'),
    dnsProvider: e.dnsProvider || 'custom',
    // Masked by the server: only the last 4 characters show.
    dnsApiKey: e.dnsApiKey ?? '',
    dnsApiSecret: e.dnsApiSecret ?? '',
    dnsZoneId: e.dnsZoneId ?? '',
    requiresVerification: Boolean(e.requiresVerification),
    verificationDocuments: (e.verificationDocuments ?? []).join('\n'),
    verificationInstructions: e.verificationInstructions ?? '',
    adminEmail: e.adminEmail ?? '',
    technicalEmail: e.technicalEmail ?? '',
    billingEmail: e.billingEmail ?? '',
    whoisPrivacyEnabled: e.whoisPrivacyEnabled ?? true,
    renewalPrice: String(e.renewalPrice),
    renewalPeriodDays: String(e.renewalPeriodDays),
    gracePeriodDays: String(e.gracePeriodDays),
    minNameLength: String(e.minNameLength),
    maxNameLength: String(e.maxNameLength),
    allowedCharacters: e.allowedCharacters,
    allowsSubdomains: e.allowsSubdomains ?? true,
    allowsDnsManagement: e.allowsDnsManagement ?? true,
    allowsEmailForwarding: e.allowsEmailForwarding ?? true,
  }
}

/**
 * The request body. The DNS key and secret are sent only when the admin
 * typed a new one (an emptied field removes it); the masked value the form
 * was filled with is never sent.
 */
export function bodyOf(values: Values, initial: Values): ExtensionInput {
  const num = (text: string) => (text.trim() === '' ? undefined : Number(text))
  const body: ExtensionInput = {
    extension: values.extension.trim(),
    active: values.active,
    basePrice: num(values.basePrice),
    description: values.description,
    dnsNameservers: parseList(values.dnsNameservers),
    dnsProvider: values.dnsProvider,
    dnsZoneId: values.dnsZoneId.trim(),
    requiresVerification: values.requiresVerification,
    verificationDocuments: parseList(values.verificationDocuments),
    verificationInstructions: values.verificationInstructions,
    adminEmail: values.adminEmail.trim(),
    technicalEmail: values.technicalEmail.trim(),
    billingEmail: values.billingEmail.trim(),
    whoisPrivacyEnabled: values.whoisPrivacyEnabled,
    renewalPrice: num(values.renewalPrice),
    renewalPeriodDays: num(values.renewalPeriodDays),
    gracePeriodDays: num(values.gracePeriodDays),
    minNameLength: num(values.minNameLength),
    maxNameLength: num(values.maxNameLength),
    allowedCharacters: values.allowedCharacters.trim(),
    allowsSubdomains: values.allowsSubdomains,
    allowsDnsManagement: values.allowsDnsManagement,
    allowsEmailForwarding: values.allowsEmailForwarding,
  }
  if (values.dnsApiKey !== initial.dnsApiKey) body.dnsApiKey = values.dnsApiKey.trim()
  if (values.dnsApiSecret !== initial.dnsApiSecret) body.dnsApiSecret = values.dnsApiSecret.trim()
  return body
}

function Check({ label, name, register }: { label: string; name: keyof Values; register: UseFormRegister<Values> }) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register(name)} />
      {label}
    </label>
  )
}

function Grid({ children }: { children: ReactNode }) {
  return <div className="grid gap-4 sm:grid-cols-2">{children}</div>
}

function ExtensionConfigForm({
  selected,
  onSaved,
  section,
  onSectionChange,
}: {
  selected: AdminExtension | null
  onSaved: (id: number | null) => void
  /** The open section; kept by the panel so a save (which reloads the form) stays on it. */
  section: string
  onSectionChange: (section: string) => void
}) {
  const queryClient = useQueryClient()
  const initial = selected ? valuesOf(selected) : newValues
  const form = useForm<Values>({ defaultValues: initial })
  const { register, watch, formState } = form
  const [confirming, setConfirming] = useState(false)
  const provider = watch('dnsProvider')
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminExtensionsQueryKey })

  const save = useMutation({
    mutationFn: (values: Values) =>
      selected ? updateExtension(selected.id, bodyOf(values, initial)) : createExtension(bodyOf(values, initial)),
    onSuccess: async (saved) => {
      if (!selected) toast({ title: 'Success', description: 'Domain extension has been added' })
      await refresh()
      onSaved(saved.id)
    },
    onError: (error) =>
      toast({
        title: 'Error',
        variant: 'destructive',
        description: serverMessage(error) ?? (selected ? 'Failed to update domain extension' : 'Failed to create domain extension'),
      }),
  })
  const remove = useMutation({
    mutationFn: (id: number) => deleteExtension(id),
    onSuccess: async () => {
      setConfirming(false)
      await refresh()
      onSaved(null)
    },
    onError: (error) => {
      setConfirming(false)
      toast({ title: 'Error', variant: 'destructive', description: serverMessage(error) ?? 'Failed to delete domain extension' })
    },
  })

  function submit(values: Values) {
    if (!values.extension.trim()) {
      toast({ title: 'Validation Error', variant: 'destructive', description: 'Domain extension is required' })
      return
    }
    save.mutate(values)
  }

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} aria-label="Extension configuration">
      <Tabs value={section} onValueChange={onSectionChange}>
        <TabsList aria-label="Configuration sections">
          {['Basic', 'DNS', 'Contacts', 'Verification', 'Rules', 'Features'].map((label) => (
            <TabsTrigger key={label} value={label.toLowerCase()}>
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="basic" className="space-y-4">
          <Grid>
            <Field label="Extension" hint="Without the leading dot, like example.tld">
              {(ids) => <Input {...ids} placeholder="example.tld" {...register('extension')} />}
            </Field>
            <Field label="Base price (USD)">
              {(ids) => <Input {...ids} type="number" min={0} step={0.01} {...register('basePrice')} />}
            </Field>
          </Grid>
          <Field label="Description">{(ids) => <Textarea {...ids} rows={3} {...register('description')} />}</Field>
          <Check label="Active" name="active" register={register} />
        </TabsContent>
        <TabsContent value="dns" className="space-y-4">
          <Field label="Nameservers" hint="One per line; duplicates are ignored.">
            {(ids) => <Textarea {...ids} rows={3} placeholder="ns1.example.net" {...register('dnsNameservers')} />}
          </Field>
          <Field label="DNS provider">
            {(ids) => (
              <Select {...ids} {...register('dnsProvider')}>
                {DNS_PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {provider !== 'custom' && (
            <Grid>
              <Field label="DNS API key" hint="Stored encrypted; only the last 4 characters are shown. Type a new key to replace it.">
                {(ids) => <Input {...ids} autoComplete="off" spellCheck={false} {...register('dnsApiKey')} />}
              </Field>
              <Field label="DNS API secret" hint="Stored encrypted; only the last 4 characters are shown. Type a new secret to replace it.">
                {(ids) => <Input {...ids} autoComplete="off" spellCheck={false} {...register('dnsApiSecret')} />}
              </Field>
              <Field label="DNS zone ID">{(ids) => <Input {...ids} {...register('dnsZoneId')} />}</Field>
            </Grid>
          )}
        </TabsContent>
        <TabsContent value="contacts" className="space-y-4">
          <Grid>
            <Field label="Admin email">{(ids) => <Input {...ids} type="email" {...register('adminEmail')} />}</Field>
            <Field label="Technical email">{(ids) => <Input {...ids} type="email" {...register('technicalEmail')} />}</Field>
            <Field label="Billing email">{(ids) => <Input {...ids} type="email" {...register('billingEmail')} />}</Field>
          </Grid>
          <Check label="WHOIS privacy enabled" name="whoisPrivacyEnabled" register={register} />
        </TabsContent>
        <TabsContent value="verification" className="space-y-4">
          <Check label="Requires verification" name="requiresVerification" register={register} />
          <Field label="Verification documents" hint="One per line; duplicates are ignored.">
            {(ids) => <Textarea {...ids} rows={3} {...register('verificationDocuments')} />}
          </Field>
          <Field label="Verification instructions">
            {(ids) => <Textarea {...ids} rows={3} {...register('verificationInstructions')} />}
          </Field>
        </TabsContent>
        <TabsContent value="rules" className="space-y-4">
          <Grid>
            <Field label="Renewal price (USD)" hint="Empty: the base price.">
              {(ids) => <Input {...ids} type="number" min={0} step={0.01} {...register('renewalPrice')} />}
            </Field>
            <Field label="Renewal period (days)">
              {(ids) => <Input {...ids} type="number" min={30} {...register('renewalPeriodDays')} />}
            </Field>
            <Field label="Grace period (days)">
              {(ids) => <Input {...ids} type="number" min={0} {...register('gracePeriodDays')} />}
            </Field>
            <Field label="Allowed characters">{(ids) => <Input {...ids} {...register('allowedCharacters')} />}</Field>
            <Field label="Minimum name length">
              {(ids) => <Input {...ids} type="number" min={1} max={63} {...register('minNameLength')} />}
            </Field>
            <Field label="Maximum name length">
              {(ids) => <Input {...ids} type="number" min={1} max={63} {...register('maxNameLength')} />}
            </Field>
          </Grid>
        </TabsContent>
        <TabsContent value="features" className="space-y-3">
          <Check label="Allows subdomains" name="allowsSubdomains" register={register} />
          <Check label="Allows DNS management" name="allowsDnsManagement" register={register} />
          <Check label="Allows email forwarding" name="allowsEmailForwarding" register={register} />
        </TabsContent>
      </Tabs>
      <div className="mt-6 flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-end">
        {selected && (
          <Button variant="outline" className="text-red-700" onClick={() => setConfirming(true)}>
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete
          </Button>
        )}
        <Button type="submit" disabled={!formState.isDirty || save.isPending}>
          {selected ? 'Update Extension' : 'Create Extension'}
        </Button>
      </div>
      {selected && (
        <ConfirmDelete
          extension={selected.extension}
          open={confirming}
          onOpenChange={setConfirming}
          onConfirm={() => remove.mutate(selected.id)}
          pending={remove.isPending}
        />
      )}
    </form>
  )
}

/** The Advanced Config tab: every extension's whole configuration. */
export function AdvancedConfigPanel() {
  const { data, isPending, isError } = useQuery(adminExtensionsQueryOptions())
  // null: a new extension; undefined: the first one, once the list is loaded.
  const [selectedId, setSelectedId] = useState<number | null | undefined>(undefined)
  const [section, setSection] = useState('basic')
  const list = data ?? []
  const selected = selectedId === null ? null : (list.find((e) => e.id === selectedId) ?? list[0] ?? null)

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
        <div className="space-y-1">
          <CardTitle>Advanced Config</CardTitle>
          <CardDescription>DNS, contacts, verification, renewal rules and features of each extension.</CardDescription>
        </div>
        <HelpTooltip topic="admin-tools" label="Help" align="end">
          <p>
            Pick an extension on the left to edit its whole configuration, or add a new one. Update is enabled once
            something has changed.
          </p>
          <p>
            DNS API keys and secrets are stored encrypted and only their last 4 characters are shown; leave them as they
            are to keep them, or type a new one to replace them.
          </p>
        </HelpTooltip>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        ) : isError ? (
          <p className="py-10 text-center text-red-600">Failed to load domain extensions.</p>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
            <nav aria-label="Extensions" className="space-y-1">
              <ul className="space-y-1">
                {list.map((e) => (
                  <li key={e.id}>
                    <button
                      type="button"
                      aria-current={selected?.id === e.id ? 'true' : undefined}
                      onClick={() => setSelectedId(e.id)}
                      className={cx(
                        'flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm transition',
                        selected?.id === e.id ? 'bg-brand-50 text-brand-800 ring-1 ring-brand-200' : 'hover:bg-slate-50',
                      )}
                    >
                      <span className="font-medium">{withDot(e.extension)}</span>
                      <span className={cx('text-xs', e.active ? 'text-emerald-700' : 'text-slate-500')}>
                        {e.active ? 'Active' : 'Inactive'}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                aria-current={selectedId === null ? 'true' : undefined}
                onClick={() => setSelectedId(null)}
                className={cx(
                  'w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-brand-700 transition hover:bg-brand-50',
                  selectedId === null && 'bg-brand-50 ring-1 ring-brand-200',
                )}
              >
                + Add New Extension
              </button>
            </nav>
            <div className="min-w-0">
              <h3 className="mb-4 text-base font-semibold text-slate-900">
                {selected ? `Configure ${withDot(selected.extension)}` : 'New extension'}
              </h3>
              <ExtensionConfigForm
                key={selected ? `${selected.id}-${selected.updatedAt ?? ''}` : 'new'}
                selected={selected}
                onSaved={(id) => setSelectedId(id ?? undefined)}
                section={section}
                onSectionChange={setSection}
              />
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
