import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus, Settings2, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { serverMessage } from '@/lib/api'
import {
  GATEWAYS_KEY,
  GATEWAY_TEMPLATES,
  GATEWAY_TYPES,
  missingRequired,
  newGateway,
  parseGateways,
  saveGateways,
  type GatewaySettingValue,
  type GatewayType,
  type PaymentGateway,
} from '../api/gateways'
import { SITE_SETTINGS_URL, siteSettingsQueryOptions } from '../api/settings'
import { depositOptionsQueryOptions } from '@/features/wallet/api/wallet'
import { PaymentModeNotice } from './PaymentModeNotice'

function requiredFieldsError(labels: string[]) {
  toast({
    title: 'Error',
    description: `Please fill in the following required fields: ${labels.join(', ')}`,
    variant: 'destructive',
  })
}

export function PaymentGatewaysPanel() {
  const queryClient = useQueryClient()
  const { data, isPending, isError } = useQuery(siteSettingsQueryOptions())
  const setting = useMemo(() => data?.find((s) => s.key === GATEWAYS_KEY), [data])
  const gateways = useMemo(() => parseGateways(setting), [setting])
  // The gateway type to add: its own small form.
  const picker = useForm<{ type: GatewayType | '' }>({ defaultValues: { type: '' } })
  const [configuring, setConfiguring] = useState<GatewayType | null>(null)
  const [removing, setRemoving] = useState<PaymentGateway | null>(null)
  const available = GATEWAY_TYPES.filter((t) => !gateways.some((g) => g.id === t))
  // The server says which gateway types work (their deposits are offered);
  // the others can be configured ahead but not enabled.
  const options = useQuery(depositOptionsQueryOptions()).data
  const works = (id: GatewayType) => !options || options.availableGateways.includes(id)

  const save = useMutation({
    mutationFn: ({ list }: { list: PaymentGateway[]; success: () => void }) => saveGateways(setting, list),
    onSuccess: (_, { success }) => {
      success()
      void queryClient.invalidateQueries({ queryKey: [SITE_SETTINGS_URL] })
      // An enabled bank transfer changes what the wallet offers.
      void queryClient.invalidateQueries({ queryKey: depositOptionsQueryOptions().queryKey })
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to save payment gateways',
        variant: 'destructive',
      }),
  })

  const add = ({ type }: { type: GatewayType | '' }) => {
    if (!type) {
      toast({ title: 'Error', description: 'Please select a payment gateway type', variant: 'destructive' })
      return
    }
    const order = gateways.reduce((max, g) => Math.max(max, g.displayOrder ?? 0), 0) + 1
    save.mutate({
      list: [...gateways, newGateway(type, order)],
      success: () => {
        toast({ title: 'Success', description: 'Payment gateway added successfully' })
        picker.reset({ type: '' })
        setConfiguring(type)
      },
    })
  }

  const setActive = (gateway: PaymentGateway, active: boolean) => {
    if (active) {
      const missing = missingRequired(gateway)
      if (missing.length > 0) {
        requiredFieldsError(missing)
        setConfiguring(gateway.id)
        return
      }
    }
    save.mutate({
      list: gateways.map((g) => (g.id === gateway.id ? { ...g, active } : g)),
      success: () =>
        toast({
          title: active ? 'Payment Gateway Enabled' : 'Payment Gateway Disabled',
          description: `${gateway.name} is now ${active ? 'enabled' : 'disabled'} for customer payments.`,
        }),
    })
  }

  const remove = (gateway: PaymentGateway) =>
    save.mutate({
      list: gateways.filter((g) => g.id !== gateway.id),
      success: () => {
        toast({ title: 'Success', description: 'Payment gateway removed successfully' })
        setRemoving(null)
        if (configuring === gateway.id) setConfiguring(null)
      },
    })

  const current = gateways.find((g) => g.id === configuring)

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Payment Gateways</CardTitle>
          <CardDescription>The ways customers can pay. New gateways start inactive and in test mode.</CardDescription>
        </div>
        <HelpTooltip topic="admin-tools" label="Help" align="end">
          <p>
            Add a gateway, fill in its credentials under Configure, then switch it on to offer it to customers. Test
            mode uses the provider's sandbox so no real money moves.
          </p>
          <p>
            Secret keys are stored encrypted and only their last 4 characters are ever shown. Leave a masked key as it
            is to keep it; type a new one to replace it.
          </p>
        </HelpTooltip>
      </CardHeader>
      <CardContent className="space-y-6">
        <PaymentModeNotice />
        {isPending ? (
          <Spinner label="Loading payment gateways" />
        ) : isError ? (
          <p className="py-8 text-center text-sm text-red-600">Failed to load payment gateways.</p>
        ) : (
          <>
            <form
              noValidate
              onSubmit={picker.handleSubmit(add)}
              className="flex flex-col gap-2 sm:flex-row sm:items-end"
            >
              <Field label="Add a gateway" className="sm:w-72">
                {(ids) => (
                  <Select {...ids} {...picker.register('type')}>
                    <option value="">Choose a type…</option>
                    {available.map((t) => (
                      <option key={t} value={t}>
                        {GATEWAY_TEMPLATES[t].name}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Button type="submit" disabled={save.isPending || available.length === 0}>
                <Plus className="h-4 w-4" aria-hidden />
                Add Gateway
              </Button>
            </form>

            {gateways.length === 0 ? (
              <p className="rounded-lg border border-dashed border-slate-300 py-8 text-center text-sm text-slate-500">
                No payment gateways configured yet.
              </p>
            ) : (
              <ul
                aria-label="Payment gateways"
                className="divide-y divide-slate-100 rounded-lg border border-slate-200"
              >
                {gateways.map((g) => (
                  <li key={g.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                    <div className="min-w-0 flex-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="font-medium text-slate-900">{g.name}</span>
                        <Badge tone={g.active ? 'success' : 'muted'}>{g.active ? 'Active' : 'Inactive'}</Badge>
                        {g.testMode && <Badge tone="premium">Test mode</Badge>}
                        {!works(g.id) && <Badge tone="muted">Not available yet</Badge>}
                      </div>
                      <p className="mt-0.5 text-sm text-slate-500">{g.description}</p>
                      {!works(g.id) && (
                        <p className="mt-0.5 text-sm text-amber-700">
                          Payments by {g.name} are not available yet: it cannot be enabled, and the wallet does not
                          offer it.
                        </p>
                      )}
                    </div>
                    <div className="flex items-center gap-2">
                      <button
                        type="button"
                        role="switch"
                        aria-checked={g.active}
                        aria-label={`Enable ${g.name}`}
                        disabled={save.isPending || (!g.active && !works(g.id))}
                        onClick={() => setActive(g, !g.active)}
                        className={`relative mr-1 h-6 w-11 shrink-0 rounded-full transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60 ${g.active ? 'bg-emerald-500' : 'bg-slate-300'}`}
                      >
                        <span
                          aria-hidden
                          className={`absolute left-0.5 top-0.5 h-5 w-5 rounded-full bg-white shadow transition ${g.active ? 'translate-x-5' : ''}`}
                        />
                      </button>
                      <Button variant="outline" size="sm" onClick={() => setConfiguring(g.id)}>
                        <Settings2 className="h-4 w-4" aria-hidden />
                        Configure
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Remove ${g.name}`}
                        onClick={() => setRemoving(g)}
                      >
                        <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
                      </Button>
                    </div>
                  </li>
                ))}
              </ul>
            )}

            {current && (
              <GatewayConfig
                key={`${current.id}-${setting?.updatedAt ?? ''}`}
                gateway={current}
                saving={save.isPending}
                onCancel={() => setConfiguring(null)}
                onSave={(updated) => {
                  const missing = missingRequired(updated)
                  if (missing.length > 0) {
                    requiredFieldsError(missing)
                    return
                  }
                  save.mutate({
                    list: gateways.map((g) => (g.id === updated.id ? updated : g)),
                    success: () => {
                      toast({ title: 'Success', description: `${updated.name} settings saved` })
                      setConfiguring(null)
                    },
                  })
                }}
              />
            )}
          </>
        )}
      </CardContent>

      <Dialog open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Remove {removing?.name}?</DialogTitle>
            <DialogDescription>
              Customers can no longer pay with it, and its stored credentials are deleted.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="destructive" disabled={save.isPending} onClick={() => removing && remove(removing)}>
              Remove
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}

interface GatewayValues {
  settings: Record<string, GatewaySettingValue>
  testMode: boolean
}

function GatewayConfig({
  gateway,
  saving,
  onSave,
  onCancel,
}: {
  gateway: PaymentGateway
  saving: boolean
  onSave: (g: PaymentGateway) => void
  onCancel: () => void
}) {
  // Stored values the fields do not show are kept and sent back as they are.
  const form = useForm<GatewayValues>({ defaultValues: { settings: gateway.settings, testMode: gateway.testMode } })
  const settings = form.watch('settings')

  return (
    <form
      aria-label={`Configure ${gateway.name}`}
      noValidate
      onSubmit={form.handleSubmit((values) =>
        onSave({ ...gateway, settings: values.settings, testMode: values.testMode }),
      )}
      className="space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4"
    >
      <h3 className="font-semibold text-slate-900">Configure {gateway.name}</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        {gateway.fields.map((f) => {
          const name = `settings.${f.name}` as const
          const label = f.required ? `${f.label} *` : f.label
          if (f.type === 'checkbox') {
            return (
              <label key={f.name} className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
                <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register(name)} />
                {f.label}
              </label>
            )
          }
          const value = settings?.[f.name]
          const text = typeof value === 'string' ? value : ''
          const masked = f.type === 'password' && text.startsWith('••••')
          return (
            <Field
              key={f.name}
              label={label}
              className={f.type === 'textarea' ? 'sm:col-span-2' : undefined}
              hint={masked ? `Stored secret ends in ${text.slice(4) || '…'}; leave it as is to keep it.` : undefined}
            >
              {(ids) =>
                f.type === 'textarea' ? (
                  <Textarea {...ids} rows={3} {...form.register(name)} />
                ) : f.type === 'select' ? (
                  <Select {...ids} {...form.register(name)}>
                    {f.options?.map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    {...ids}
                    type={f.type === 'password' ? 'password' : 'text'}
                    autoComplete="off"
                    placeholder={f.placeholder}
                    onFocus={(e) => masked && e.currentTarget.select()}
                    {...form.register(name)}
                  />
                )
              }
            </Field>
          )
        })}
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register('testMode')} />
        Test mode (use the provider's sandbox)
      </label>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={saving}>
          Save Configuration
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
