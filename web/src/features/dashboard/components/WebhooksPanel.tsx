import { useId, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { Check, Copy, History, Plus, Send, ShieldAlert, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Field, Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { copyText } from '@/lib/clipboard'
import { formatDate } from '@/lib/format'
import {
  deliveriesQueryOptions,
  EVENT_HELP,
  useCreateWebhook,
  useDeleteWebhook,
  useTestWebhook,
  webhookErrorText,
  webhooksQueryOptions,
  type NewWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../api/webhooks'

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

/** An endpoint's delivery log, newest first. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const log = useQuery(deliveriesQueryOptions(endpoint.id))
  if (log.isPending) return <p className="text-sm text-slate-500">Loading deliveries...</p>
  if (log.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        The delivery log could not be loaded. {webhookErrorText(log.error)}
      </p>
    )
  if (log.data.deliveries.length === 0)
    return <p className="text-sm text-slate-500">No deliveries yet. Send a test event to try the endpoint.</p>
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm" aria-label={`Deliveries to ${endpoint.url}`}>
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Event</th>
            <th className="py-2 pr-3 font-medium">State</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 pr-3 font-medium">Latency</th>
            <th className="py-2 pr-3 font-medium">Attempts</th>
            <th className="py-2 font-medium">Time</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {log.data.deliveries.map((d) => (
            <tr key={d.id} className="align-top">
              <td className="py-2 pr-3 font-mono text-xs text-slate-800">{d.eventType}</td>
              <td className="py-2 pr-3">
                <DeliveryState delivery={d} />
              </td>
              <td className="py-2 pr-3">
                <Outcome delivery={d} />
              </td>
              <td className="py-2 pr-3 text-slate-700">{d.latencyMs != null ? `${d.latencyMs} ms` : '—'}</td>
              <td className="py-2 pr-3 text-slate-700">{d.attempts}</td>
              <td className="py-2 text-slate-700">{when(d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** One endpoint: its URL, events and last delivery, with its actions and its log. */
function EndpointCard({ endpoint, onDelete }: { endpoint: WebhookEndpoint; onDelete: () => void }) {
  const [showLog, setShowLog] = useState(false)
  const test = useTestWebhook()
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
            {!endpoint.enabled && ' · Disabled'}
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
        <div className="flex shrink-0 flex-wrap gap-2">
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

interface AddValues {
  url: string
  events: string[]
}

/** Adds an endpoint: its URL and the events to send it. The server's refusals show in the dialog. */
function AddEndpointDialog({
  eventTypes,
  onClose,
  onCreated,
}: {
  eventTypes: string[]
  onClose: () => void
  onCreated: (endpoint: NewWebhookEndpoint) => void
}) {
  const create = useCreateWebhook()
  const form = useForm<AddValues>({ defaultValues: { url: '', events: eventTypes } })
  const { errors } = form.formState
  const saving = create.isPending
  const eventsId = useId()
  const submit = form.handleSubmit((values) =>
    create.mutate({ url: values.url.trim(), events: values.events }, { onSuccess: onCreated }),
  )
  return (
    <Dialog open onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent hideClose={saving}>
        <form noValidate aria-label="Add endpoint" onSubmit={submit}>
          <DialogHeader>
            <DialogTitle>Add endpoint</DialogTitle>
            <DialogDescription>
              Events are POSTed to it as JSON, signed with a secret shown once, when the endpoint is added.
            </DialogDescription>
          </DialogHeader>
          <div className="mt-5 space-y-5">
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
            {create.isError && (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 ring-1 ring-inset ring-red-200">
                {webhookErrorText(create.error)}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" disabled={saving} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Adding...' : 'Add endpoint'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** The signing secret of an endpoint just added: the only time it is shown. */
function SigningSecretDialog({ added, onClose }: { added: NewWebhookEndpoint; onClose: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await copyText(added.secret)
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the secret and copy it by hand.' })
      return
    }
    setCopied(true)
    toast({ title: 'Signing secret copied', description: 'The signing secret is on your clipboard.' })
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Endpoint added</DialogTitle>
          <DialogDescription>
            Check the Nameport-Signature header of every delivery with this signing secret (the SDK's
            VerifyWebhookSignature does it).
          </DialogDescription>
        </DialogHeader>
        <div className="mt-5 space-y-4">
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="webhook-secret" className="sr-only">
              Signing secret
            </label>
            <Input
              id="webhook-secret"
              value={added.secret}
              readOnly
              className="font-mono text-xs sm:text-sm"
              onFocus={(event) => event.target.select()}
            />
            <Button
              variant="outline"
              onClick={copy}
              aria-label={copied ? 'Signing secret copied' : 'Copy signing secret'}
            >
              {copied ? (
                <Check className="h-4 w-4 text-emerald-600" aria-hidden />
              ) : (
                <Copy className="h-4 w-4" aria-hidden />
              )}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
            <ShieldAlert className="h-4 w-4 shrink-0 translate-y-0.5" aria-hidden />
            This is the only time this secret is shown. Store it somewhere safe now: if it is lost, delete the endpoint
            and add it again.
          </p>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

/**
 * The Webhooks tab: the registrar's endpoints, each with its events, its last
 * delivery, a test event and its delivery log; add one (its signing secret
 * shown once) or delete one, asked first.
 */
export function WebhooksPanel() {
  const hooks = useQuery(webhooksQueryOptions())
  const [adding, setAdding] = useState(false)
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
              <EndpointCard key={e.id} endpoint={e} onDelete={() => setConfirmDelete(e)} />
            ))}
          </ul>
        )}
      </CardContent>
      {adding && hooks.data && (
        <AddEndpointDialog
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
