import { forwardRef, useEffect, useId, useRef, useState, type InputHTMLAttributes } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { TriangleAlert } from 'lucide-react'
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
import { dnsRecordsQueryOptions } from '@/lib/dns'
import {
  domainForwardingQueryOptions,
  previewForward,
  setForward,
  type DomainForward,
  type ForwardInput,
  type ForwardPreview,
} from '../api/domainForwarding'
import { DEFAULT_STATUS, errorText, STATUS_OPTIONS } from '../forwardText'

interface ForwardFormValues {
  host: string
  target: string
  status: string
  keepPath: boolean
  keepQuery: boolean
}

function formValues(forward: DomainForward | null): ForwardFormValues {
  if (!forward) return { host: '', target: '', status: String(DEFAULT_STATUS), keepPath: false, keepQuery: false }
  const { host, target, status, keepPath, keepQuery } = forward
  return { host, target, status: String(status), keepPath, keepQuery }
}

/** The body the dialog sends: the server checks the target, not the form. */
function forwardInput(values: ForwardFormValues): ForwardInput {
  return {
    target: values.target.trim(),
    status: Number(values.status),
    keepPath: values.keepPath,
    keepQuery: values.keepQuery,
  }
}

/** A save either asks first (the preview names records it would replace) or is done. */
type SaveResult = { preview: ForwardPreview } | { forward: DomainForward }

const hostRequired = 'Enter a host name: @ for the domain itself, or a name such as www'
// The server's own words for a missing target.
const targetRequired = 'Enter the URL to forward to, for example https://example.com'

/**
 * Adds a forward, or changes `forward` (its host stays). Saving previews the
 * host's records first: when the host has records of its own (an A record
 * of another server, a CNAME), the dialog names them and saves only once
 * the user confirms replacing them. The server's refusals show in the
 * dialog as they come.
 */
export function ForwardDialog({
  domainId,
  apex,
  addresses,
  forward,
  onClose,
}: {
  domainId: number
  apex: string
  addresses: string[]
  forward: DomainForward | null
  onClose: () => void
}) {
  const editing = forward !== null
  const queryClient = useQueryClient()
  const form = useForm<ForwardFormValues>({ defaultValues: formValues(forward) })
  const { errors } = form.formState
  const [confirm, setConfirm] = useState<ForwardPreview | null>(null)
  const actions = useRef<HTMLDivElement>(null)
  // On a phone the dialog is taller than the screen: bring the question,
  // which sits right above the buttons, into view with its answers.
  useEffect(() => {
    if (confirm) actions.current?.scrollIntoView({ block: 'nearest' })
  }, [confirm])

  const save = useMutation({
    mutationFn: async ({ values, replace }: { values: ForwardFormValues; replace: boolean }): Promise<SaveResult> => {
      const host = values.host.trim()
      if (!replace) {
        const preview = await previewForward(domainId, host)
        if (preview.replaces.length > 0) return { preview }
      }
      return { forward: await setForward(domainId, host, forwardInput(values), replace) }
    },
    onSuccess: (result) => {
      if ('preview' in result) {
        setConfirm(result.preview)
        return
      }
      const saved = result.forward
      toast({
        title: editing ? 'Forward saved' : 'Forward added',
        description: `${saved.name} now forwards to ${saved.target}.`,
      })
      // The forward set the host's A/AAAA records, which the DNS tab lists.
      void queryClient.invalidateQueries(domainForwardingQueryOptions(domainId))
      void queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domainId).queryKey })
      onClose()
    },
    onError: () => setConfirm(null),
  })
  const saving = save.isPending

  // What was confirmed was for the values as they were: a change asks again.
  useEffect(() => {
    const subscription = form.watch(() => {
      setConfirm(null)
      save.reset()
    })
    return () => subscription.unsubscribe()
    // save.reset is the same function for the dialog's life.
  }, [form])

  const title = editing ? `Edit the forward of ${forward.name}` : 'Add forward'
  const pointsAt = addresses.join(', ')

  return (
    <Dialog open onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent hideClose={saving}>
        <form
          noValidate
          aria-label={title}
          onSubmit={form.handleSubmit((values) => save.mutate({ values, replace: confirm !== null }))}
        >
          <DialogHeader>
            <DialogTitle className="break-words">{title}</DialogTitle>
            <DialogDescription>
              Visitors of the host name are sent to the target, over HTTP and HTTPS.
              {pointsAt && ` Its address records will point at ${pointsAt}.`}
            </DialogDescription>
          </DialogHeader>

          <div className="mt-5 space-y-4">
            {!editing && (
              <Field
                label="Host name"
                error={errors.host?.message}
                hint={
                  <>
                    <span className="font-mono">@</span> for {apex} itself, or a name such as{' '}
                    <span className="font-mono">www</span>.
                  </>
                }
              >
                {(ids) => (
                  <div className="flex items-center gap-2">
                    <Input
                      {...ids}
                      placeholder="@ or www"
                      autoComplete="off"
                      spellCheck={false}
                      className="min-w-[6rem] flex-1"
                      {...form.register('host', { validate: (value) => value.trim() !== '' || hostRequired })}
                    />
                    {/* A long name is cut short rather than wrapped; the title has it whole. */}
                    <span title={`.${apex}`} className="max-w-[60%] truncate text-sm text-slate-600">
                      .{apex}
                    </span>
                  </div>
                )}
              </Field>
            )}
            <Field
              label="Forward to"
              error={errors.target?.message}
              hint="The address visitors are sent to, starting with https:// or http://."
            >
              {(ids) => (
                <Input
                  {...ids}
                  type="url"
                  inputMode="url"
                  placeholder="https://example.com"
                  autoComplete="off"
                  spellCheck={false}
                  {...form.register('target', { validate: (value) => value.trim() !== '' || targetRequired })}
                />
              )}
            </Field>
            <Field
              label="Redirect type"
              hint="Browsers remember a permanent redirect; choose temporary while the target may change."
            >
              {(ids) => (
                <Select {...ids} {...form.register('status')}>
                  {STATUS_OPTIONS.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <fieldset className="space-y-2">
              <legend className="sr-only">Options</legend>
              <Checkbox
                label="Keep the path"
                hint="/blog/post is added to the target's path."
                {...form.register('keepPath')}
              />
              <Checkbox
                label="Keep the query string"
                hint="?ref=news is added to the target's query."
                {...form.register('keepQuery')}
              />
            </fieldset>

            {confirm && (
              <div
                role="alert"
                className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
              >
                <p className="flex items-start gap-2 font-medium">
                  <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-600" aria-hidden />
                  <span className="min-w-0 break-words">Forwarding {confirm.name} replaces its records:</span>
                </p>
                <ul aria-label="Records to replace" className="ml-6 mt-1 space-y-0.5 font-mono text-xs">
                  {confirm.replaces.map((record) => (
                    <li key={record} className="break-all">
                      {record}
                    </li>
                  ))}
                </ul>
                {confirm.adds.length > 0 && (
                  <p className="ml-6 mt-2 break-words">
                    They are removed, and {confirm.name} gets{' '}
                    <span className="font-mono text-xs">{confirm.adds.join(', ')}</span> instead.
                  </p>
                )}
              </div>
            )}
            {save.isError && (
              <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 ring-1 ring-inset ring-red-200">
                {errorText(save.error)}
              </p>
            )}
          </div>

          <div ref={actions}>
            <DialogFooter>
              <Button variant="outline" disabled={saving} onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving}>
                {saving ? 'Saving...' : confirm ? 'Replace records and save' : editing ? 'Save changes' : 'Add forward'}
              </Button>
            </DialogFooter>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** A checkbox with its label, and a line (its description) saying what it does. */
const Checkbox = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & { label: string; hint: string }>(
  function Checkbox({ label, hint, ...props }, ref) {
    const id = useId()
    return (
      <div className="flex items-start gap-2 text-sm">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-describedby={`${id}-hint`}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
          {...props}
        />
        <div>
          <label htmlFor={id} className="font-medium text-slate-800">
            {label}
          </label>
          <p id={`${id}-hint`} className="text-xs text-slate-500">
            {hint}
          </p>
        </div>
      </div>
    )
  },
)
