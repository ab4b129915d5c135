import { useId, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { History, Pencil, Plus, Send, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form'
import { Switch } from '@/components/ui/Switch'
import { toast } from '@/components/toast/toastStore'
import { formatDate } from '@/lib/format'
import {
  deliveriesQueryOptions,
  EVENT_HELP,
  useCreateWebhook,
  useDeleteWebhook,
  useTestWebhook,
  useUpdateWebhook,
  webhookErrorText,
  webhooksQueryOptions,
  type NewWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../api/webhooks'
import { DialogFormActions, DialogFormError } from './DialogFormActions'
import { SecretOnceDialog } from './SecretOnceDialog'

const time = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' })

/** A delivery's outcome as a badge: delivered, retrying, failed or sending. */
function DeliveryState({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.state === 'succeeded') return <Badge tone="success">Delivered</Badge>
  if (delivery.state === 'failed') return <Badge className="bg-red-50 text-red-700 ring-red-200">Failed</Badge>
  if (delivery.attempts > 0) return <Badge tone="premium">Retrying</Badge>
  return <Badge tone="muted">Sending</Badge>
}

function when(at: string) {
  return `${formatDate(at)} ${time.format(new Date(at))}`
}

/** What the last attempt got: its status code, or why it got none. */
function Outcome({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.statusCode) return <span className="font-mono">{delivery.statusCode}</span>
  if (delivery.error) return <span className="break-words text-red-700">{delivery.error}</span>
  return <span className="text-slate-500">—</span>
}

const latency = (d: WebhookDelivery) => (d.latencyMs != null ? `${d.latencyMs} ms` : '—')

const deliveryColumns: Column<WebhookDelivery>[] = [
  { header: 'Event', rowHeader: true, className: 'font-mono text-xs text-slate-800', cell: (d) => d.eventType },
  { header: 'State', cell: (d) => <DeliveryState delivery={d} /> },
  { header: 'Status', cell: (d) => <Outcome delivery={d} /> },
  { header: 'Latency', className: 'whitespace-nowrap tabular-nums text-slate-700', cell: latency },
  { header: 'Attempts', className: 'tabular-nums text-slate-700', cell: (d) => d.attempts },
  { header: 'Time', className: 'text-slate-700', cell: (d) => when(d.createdAt) },
]

/** An endpoint's delivery log, newest first: a table, or a card a delivery on a phone. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const log = useQuery(deliveriesQueryOptions(endpoint.id))
  if (log.isPending) return <p className="text-sm text-slate-500">Loading deliveries...</p>
  if (log.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        The delivery log could not be loaded. {webhookErrorText(log.error)}
      </p>
    )
  return (
    <DataTable
      label={`Deliveries to ${endpoint.url}`}
      rows={log.data.deliveries}
      rowKey={(d) => d.id}
      columns={deliveryColumns}
      edge="box"
      rowClassName={() => 'align-top'}
      empty={<p className="text-sm text-slate-500">No deliveries yet. Send a test event to try the endpoint.</p>}
      stacked={(d) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <span className="min-w-0 font-mono text-xs font-medium text-slate-800 [overflow-wrap:anywhere]">
              {d.eventType}
            </span>
            <DeliveryState delivery={d} />
          </div>
          <dl className="mt-2 grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Status</dt>
            <dd className="min-w-0">
              <Outcome delivery={d} />
            </dd>
            <dt className="text-slate-500">Latency</dt>
            <dd className="tabular-nums">{latency(d)}</dd>
            <dt className="text-slate-500">Attempts</dt>
            <dd className="tabular-nums">{d.attempts}</dd>
            <dt className="text-slate-500">Time</dt>
            <dd>{when(d.createdAt)}</dd>
          </dl>
        </>
      )}
    />
  )
}

/** One endpoint: its URL, events and last delivery, with its actions and its log. */
function EndpointCard({
  endpoint,
  onEdit,
  onDelete,
}: {
  endpoint: WebhookEndpoint
  onEdit: () => void
  onDelete: () => void
}) {
  const [showLog, setShowLog] = useState(false)
  const test = useTestWebhook()
  const update = useUpdateWebhook()
  const setEnabled = (enabled: boolean) =>
    update.mutate(
      { id: endpoint.id, update: { enabled } },
      {
        onSuccess: () =>
          toast({
            title: enabled ? 'Endpoint enabled' : 'Endpoint disabled',
            description: enabled
              ? `${endpoint.url} gets events again.`
              : `${endpoint.url} gets no events until you enable it.`,
          }),
        onError: (error) => toast({ variant: 'destructive', title: 'Error', description: webhookErrorText(error) }),
      },
    )
  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        setShowLog(true)
        toast({ title: 'Test event sent', description: 'Its delivery shows in the log below.' })
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: webhookErrorText(error) }),
    })
  const last = endpoint.lastDelivery
  return (
    <li className="rounded-xl p-4 ring-1 ring-inset ring-slate-200">
      <div className="flex flex-col gap-3 md:flex-row md:items-start md:justify-between">
        <div className="min-w-0 space-y-2">
          <p className="break-all font-mono text-sm font-medium text-slate-900">{endpoint.url}</p>
          <div className="flex flex-wrap gap-1.5">
            {endpoint.events.map((e) => (
              <Badge key={e} tone="brand" className="font-mono text-xs">
                {e}
              </Badge>
            ))}
          </div>
          <p className="text-xs text-slate-500">
            Added {formatDate(endpoint.createdAt)}
            {' · '}
            {last ? (
              <span>
                Last delivery: <DeliveryState delivery={last} /> {last.eventType}, {when(last.createdAt)}
              </span>
            ) : (
              'No deliveries yet'
            )}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <span className="mr-1 flex items-center gap-2 text-sm text-slate-700">
            <Switch
              checked={endpoint.enabled}
              label={`Enable endpoint ${endpoint.url}`}
              disabled={update.isPending}
              onChange={setEnabled}
            />
            <span aria-hidden>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
          </span>
          <Button size="sm" variant="outline" onClick={sendTest} disabled={test.isPending}>
            <Send className="h-4 w-4" aria-hidden />
            {test.isPending ? 'Sending...' : 'Send test event'}
          </Button>
          <Button size="sm" variant="outline" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
            <History className="h-4 w-4" aria-hidden />
            {showLog ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit events of ${endpoint.url}`}
            title="Edit events"
            onClick={onEdit}
          >
            <Pencil className="h-4 w-4" aria-hidden />
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete endpoint ${endpoint.url}`}
            title="Delete"
            onClick={onDelete}
            className="text-red-600 hover:bg-red-50 hover:text-red-700"
          >
            <Trash2 className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </div>
      {showLog && (
        <div className="mt-4 border-t border-slate-100 pt-3">
          <DeliveryLog endpoint={endpoint} />
        </div>
      )}
    </li>
  )
}

interface EndpointValues {
  url: string
  events: string[]
}

/**
 * Adds an endpoint (its URL and the events to send it), or changes the events
 * of one (editing). The server's refusals show in the dialog.
 */
function EndpointDialog({
  eventTypes,
  editing,
  onClose,
  onCreated,
}: {
  eventTypes: string[]
  /** The endpoint whose events change; none to add one. */
  editing?: WebhookEndpoint
  onClose: () => void
  onCreated?: (endpoint: NewWebhookEndpoint) => void
}) {
  const create = useCreateWebhook()
  const update = useUpdateWebhook()
  const form = useForm<EndpointValues>({ defaultValues: { url: '', events: editing?.events ?? eventTypes } })
  const { errors } = form.formState
  const saving = create.isPending || update.isPending
  const failed = editing ? update : create
  const eventsId = useId()
  const submit = form.handleSubmit((values) => {
    if (editing) {
      update.mutate(
        { id: editing.id, update: { events: values.events } },
        {
          onSuccess: () => {
            toast({ title: 'Endpoint updated', description: `${editing.url} gets the events you chose.` })
            onClose()
          },
        },
      )
    } else {
      create.mutate({ url: values.url.trim(), events: values.events }, { onSuccess: onCreated })
    }
  })
  const title = editing ? 'Edit events' : 'Add endpoint'
  return (
    <Dialog open onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent hideClose={saving}>
        <form noValidate aria-label={title} onSubmit={submit}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className="[overflow-wrap:anywhere]">
              {editing
                ? `The events sent to ${editing.url} from now on.`
                : 'Events are POSTed to it as JSON, signed with a secret shown once, when the endpoint is added.'}
            </DialogDescription>
          </DialogHeader>
          <div className="mt-5 space-y-5">
            {!editing && (
              <Field label="Endpoint URL" error={errors.url?.message}>
                {(ids) => (
                  <Input
                    {...ids}
                    type="url"
                    placeholder="https://example.com/webhooks/nameport"
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={2000}
                    {...form.register('url', { validate: (v) => v.trim() !== '' || 'Enter the URL to send events to' })}
                  />
                )}
              </Field>
            )}
            <fieldset aria-describedby={errors.events ? `${eventsId}-error` : undefined}>
              <legend className="text-sm font-medium text-slate-700">Events</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {eventTypes.map((e) => (
                  <label
                    key={e}
                    className="flex cursor-pointer items-start gap-2 rounded-lg p-2.5 text-sm ring-1 ring-inset ring-slate-200 has-[:checked]:bg-brand-50/60 has-[:checked]:ring-brand-300"
                  >
                    <input
                      type="checkbox"
                      value={e}
                      className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
                      {...form.register('events', { validate: (v) => v.length > 0 || 'Choose at least one event' })}
                    />
                    <span>
                      <span className="block font-mono text-xs font-medium text-slate-800">{e}</span>
                      <span className="block text-xs text-slate-500">{EVENT_HELP[e] ?? ''}</span>
                    </span>
                  </label>
                ))}
              </div>
              {errors.events && (
                <p id={`${eventsId}-error`} role="alert" className="mt-1.5 text-sm text-red-600">
                  {errors.events.message}
                </p>
              )}
            </fieldset>
            <DialogFormError message={failed.isError ? webhookErrorText(failed.error) : undefined} />
          </div>
          <DialogFormActions
            saving={saving}
            label={editing ? 'Save events' : 'Add endpoint'}
            savingLabel={editing ? 'Saving...' : 'Adding...'}
            onCancel={onClose}
          />
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** The signing secret of an endpoint just added: the only time it is shown. */
function SigningSecretDialog({ added, onClose }: { added: NewWebhookEndpoint; onClose: () => void }) {
  return (
    <SecretOnceDialog
      title="Endpoint added"
      description="Check the Nameport-Signature header of every delivery with this signing secret (the SDK's VerifyWebhookSignature does it)."
      secret={added.secret}
      noun={{ full: 'signing secret', short: 'secret' }}
      fieldLabel="Signing secret"
      copiedTitle="Signing secret copied"
      warning="This is the only time this secret is shown. Store it somewhere safe now: if it is lost, delete the endpoint and add it again."
      onClose={onClose}
    />
  )
}

/**
 * The Webhooks tab: the registrar's endpoints, each with its events, its last
 * delivery, a test event and its delivery log, an on/off switch and its
 * events to edit; add one (its signing secret shown once) or delete one,
 * asked first.
 */
export function WebhooksPanel() {
  const hooks = useQuery(webhooksQueryOptions())
  const [adding, setAdding] = useState(false)
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null)
  const [added, setAdded] = useState<NewWebhookEndpoint | null>(null)
  const [confirmDelete, setConfirmDelete] = useState<WebhookEndpoint | null>(null)
  const remove = useDeleteWebhook()
  const onDelete = (endpoint: WebhookEndpoint) =>
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        setConfirmDelete(null)
        toast({ title: 'Endpoint deleted', description: `${endpoint.url} gets no more events.` })
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: webhookErrorText(error) }),
    })

  return (
    <Card>
      <CardHeader className="flex flex-col items-start gap-3 space-y-0 sm:flex-row sm:justify-between sm:gap-4">
        <div className="space-y-1">
          <CardTitle>Webhooks</CardTitle>
          <CardDescription>
            Get an HTTPS request when something happens to your domains, DNS or wallet. Failed deliveries are retried
            for 3 days.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setAdding(true)} disabled={!hooks.data} className="shrink-0">
          <Plus className="h-4 w-4" aria-hidden />
          Add endpoint
        </Button>
      </CardHeader>
      <CardContent>
        {hooks.isPending ? (
          <p className="text-sm text-slate-500">Loading your webhooks...</p>
        ) : hooks.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your webhooks could not be loaded. {webhookErrorText(hooks.error)}
          </p>
        ) : hooks.data.endpoints.length === 0 ? (
          <p className="rounded-xl bg-slate-50 p-6 text-center text-sm text-slate-600">
            No endpoints yet. Add one to receive events.
          </p>
        ) : (
          <ul className="space-y-3" aria-label="Webhook endpoints">
            {hooks.data.endpoints.map((e) => (
              <EndpointCard key={e.id} endpoint={e} onEdit={() => setEditing(e)} onDelete={() => setConfirmDelete(e)} />
            ))}
          </ul>
        )}
      </CardContent>
      {editing && hooks.data && (
        <EndpointDialog eventTypes={hooks.data.eventTypes} editing={editing} onClose={() => setEditing(null)} />
      )}
      {adding && hooks.data && (
        <EndpointDialog
          eventTypes={hooks.data.eventTypes}
          onClose={() => setAdding(false)}
          onCreated={(endpoint) => {
            setAdding(false)
            setAdded(endpoint)
          }}
        />
      )}
      {added && <SigningSecretDialog added={added} onClose={() => setAdded(null)} />}
      <ConfirmDialog
        open={confirmDelete !== null}
        title="Delete endpoint?"
        description={`${confirmDelete?.url ?? ''} will get no more events, and its delivery log is deleted.`}
        pending={remove.isPending}
        onCancel={() => setConfirmDelete(null)}
        onConfirm={() => confirmDelete && onDelete(confirmDelete)}
      />
    </Card>
  )
}
