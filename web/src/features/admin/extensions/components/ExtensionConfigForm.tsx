import { useState, type ReactNode } from 'react'
import { useForm, type UseFormRegister } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { useRules } from '@/lib/rules'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import {
  adminExtensionsQueryKey,
  createExtension,
  deleteExtension,
  updateExtension,
  type AdminExtension,
} from '../api/extensions'
import { ConfirmDelete } from './ConfirmDelete'
import { DNSSECKeys } from './DNSSECKeys'
import { bodyOf, newValues, valuesOf, type Values } from './extensionConfigValues'

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

/** The Advanced Config form of one extension (or a new one), in tabbed sections. */
export function ExtensionConfigForm({
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
  const rules = useRules()
  // The server's providers; until they load, the stored one, so the select keeps it.
  const providers = rules?.extensions.dnsProviders ?? [provider]
  // Name lengths run within a label's (GET /api/rules).
  const nameLengths = rules?.domainName
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminExtensionsQueryKey })

  const save = useMutation({
    mutationFn: (values: Values) =>
      selected ? updateExtension(selected.id, bodyOf(values, initial)) : createExtension(bodyOf(values, initial)),
    onSuccess: async (saved) => {
      toast({
        title: 'Success',
        description: selected ? `Settings of ${saved.extension} saved` : 'Domain extension has been added',
      })
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
      toast({ title: 'Success', description: `Domain extension ${selected?.extension ?? ''} has been deleted` })
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
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={rules?.extensions.minBasePrice}
                  step={0.01}
                  {...register('basePrice')}
                />
              )}
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
                {providers.map((p) => (
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
          <Check label="Sign the zone with DNSSEC" name="dnssecEnabled" register={register} />
          {selected && <DNSSECKeys extension={selected} />}
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
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={rules?.extensions.minRenewalPeriodDays}
                  max={rules?.extensions.maxRenewalPeriodDays}
                  {...register('renewalPeriodDays')}
                />
              )}
            </Field>
            <Field label="Grace period (days)">
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={0}
                  max={rules?.extensions.maxGracePeriodDays}
                  {...register('gracePeriodDays')}
                />
              )}
            </Field>
            <Field label="Allowed characters">{(ids) => <Input {...ids} {...register('allowedCharacters')} />}</Field>
            <Field label="Minimum name length">
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={nameLengths?.minLength}
                  max={nameLengths?.maxLength}
                  {...register('minNameLength')}
                />
              )}
            </Field>
            <Field label="Maximum name length">
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  min={nameLengths?.minLength}
                  max={nameLengths?.maxLength}
                  {...register('maxNameLength')}
                />
              )}
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
