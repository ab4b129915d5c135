import { useEffect, useRef, useState } from 'react'
import { useForm, type FieldErrors, type Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
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
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { useExtensions } from '@/lib/catalog'
import { useRules } from '@/lib/rules'
import {
  createPremiumDomain,
  dayOf,
  premiumDomainsKey,
  updatePremiumDomain,
  type AdminPremiumDomain,
  type PremiumDomainInput,
} from '../api/premiumAdmin'
import { BasicFields, MarketingFields, PricingFields } from './PremiumDomainFields'
import {
  fieldTabs,
  formValuesOf,
  inputOf,
  premiumSchema,
  type PremiumFormValues,
  type TabValue,
} from './premiumDomainForm'

/** Adds a premium name, or edits one, in three tabs; a tab with an error is marked and opened. */
export function PremiumDomainDialog({
  open,
  onOpenChange,
  domain,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  domain: AdminPremiumDomain | null
}) {
  const editing = domain !== null
  const queryClient = useQueryClient()
  const { extensions } = useExtensions()
  const [tab, setTab] = useState<TabValue>('basic')
  const originalDay = dayOf(domain?.discountValidUntil)
  const rules = useRules()?.premium
  // The rules arrive after the form exists: the resolver reads the latest.
  const schema = premiumSchema(originalDay, rules)
  const schemaRef = useRef(schema)
  schemaRef.current = schema
  const resolver: Resolver<PremiumFormValues> = (values, context, options) =>
    zodResolver(schemaRef.current)(values, context, options)
  const form = useForm<PremiumFormValues>({
    resolver,
    defaultValues: formValuesOf(domain),
  })
  const { errors } = form.formState

  useEffect(() => {
    if (open) {
      form.reset(formValuesOf(domain))
      setTab('basic')
    }
  }, [open, domain, form])

  const save = useMutation({
    mutationFn: (input: PremiumDomainInput) =>
      domain ? updatePremiumDomain(domain.id, input) : createPremiumDomain(input),
    onSuccess: async () => {
      if (!editing) toast({ title: 'Success', description: 'Premium domain added successfully' })
      onOpenChange(false)
      await queryClient.invalidateQueries({ queryKey: premiumDomainsKey })
    },
    onError: (error) => {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? (editing ? 'Failed to update premium domain' : 'Failed to add premium domain'),
        variant: 'destructive',
      })
    },
  })

  const onInvalid = (fieldErrors: FieldErrors<PremiumFormValues>) => {
    const first = (Object.keys(fieldTabs) as Array<keyof PremiumFormValues>).find((key) => fieldErrors[key])
    if (first) setTab(fieldTabs[first])
  }
  const submit = form.handleSubmit((values) => save.mutate(inputOf(values, domain)), onInvalid)

  const extensionOptions = extensions.map((e) => e.extension)
  if (domain && !extensionOptions.includes(domain.extension)) extensionOptions.push(domain.extension)

  const tabError = (value: TabValue) =>
    (Object.keys(fieldTabs) as Array<keyof PremiumFormValues>).some((key) => fieldTabs[key] === value && errors[key])

  return (
    <Dialog open={open} onOpenChange={(next) => !save.isPending && onOpenChange(next)}>
      <DialogContent wide>
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Premium Domain' : 'Add Premium Domain'}</DialogTitle>
          <DialogDescription>
            {editing
              ? `Change ${domain.name}${domain.extension}.`
              : 'A premium name is sold at its own price instead of the regular $8 per year.'}
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} aria-label={editing ? 'Edit premium domain' : 'Add premium domain'}>
          <Tabs value={tab} onValueChange={(value) => setTab(value as TabValue)} className="mt-5">
            <TabsList className="grid w-full grid-cols-3">
              {(
                [
                  ['basic', 'Basic Info'],
                  ['pricing', 'Pricing'],
                  ['marketing', 'Marketing'],
                ] as const
              ).map(([value, label]) => (
                <TabsTrigger key={value} value={value} className="justify-center px-2">
                  {label}
                  {tabError(value) && <span className="h-1.5 w-1.5 rounded-full bg-red-500" aria-label="has errors" />}
                </TabsTrigger>
              ))}
            </TabsList>

            <TabsContent value="basic" className="mt-5 space-y-4">
              <BasicFields form={form} extensionOptions={extensionOptions} />
            </TabsContent>
            <TabsContent value="pricing" className="mt-5 space-y-4">
              <PricingFields form={form} rules={rules} />
            </TabsContent>
            <TabsContent value="marketing" className="mt-5 space-y-4">
              <MarketingFields form={form} />
            </TabsContent>
          </Tabs>

          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : editing ? 'Save Changes' : 'Add Domain'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
