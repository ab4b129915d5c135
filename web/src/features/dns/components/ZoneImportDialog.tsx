import { useId, useState, type ChangeEvent } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, AlertTriangle, FileUp } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { useRules } from '@/lib/rules'
import { applyImport, dnsRecordsQueryOptions, previewImport, type DnsRecord, type ImportPlan } from '../api/dns'
import { errorText } from '../dnsText'
import { displayContent } from '../recordForm'

const placeholder = (apex: string) => `$ORIGIN ${apex}.
$TTL 3600
@      IN A     192.0.2.1
www    IN CNAME @
@      IN MX    10 mail.example.com.
@      IN TXT   "v=spf1 mx ~all"`

/** A chosen file's text (FileReader: Blob.text() is missing in some engines). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result ?? ''))
    reader.onerror = () => reject(reader.error)
    reader.readAsText(file)
  })
}

function planSize(plan: ImportPlan): number {
  return (plan.add ?? []).length + (plan.change ?? []).length + (plan.remove ?? []).length
}

/**
 * Import zone file: paste or choose a BIND file, preview what it adds,
 * changes and removes, then apply. The file's records replace the domain's.
 */
export default function ZoneImportDialog({
  domainId,
  apex,
  onClose,
}: {
  domainId: number
  apex: string
  onClose: () => void
}) {
  const queryClient = useQueryClient()
  const textId = useId()
  const form = useForm<{ zoneFile: string }>({ defaultValues: { zoneFile: '' } })
  const text = form.watch('zoneFile')
  const [fileProblem, setFileProblem] = useState<string | null>(null)
  // Apex NS records delegate the domain away; the server skips them unless
  // the user keeps the delegation, which is offered once a preview found some.
  const [delegate, setDelegate] = useState(false)
  const [hasApexNS, setHasApexNS] = useState(false)

  const preview = useMutation({
    mutationFn: (choice: { zoneFile: string; delegate: boolean }) =>
      previewImport(domainId, choice.zoneFile, choice.delegate),
    onSuccess: (found) => {
      if (found.notes.some((note) => note.kind === 'apex_ns')) setHasApexNS(true)
    },
  })
  // A preview belongs to the text it was made of; editing the text asks for a new one.
  const plan = preview.data
  const textChanged = () => {
    setFileProblem(null)
    setDelegate(false)
    setHasApexNS(false)
    preview.reset()
  }
  const chooseDelegation = (keep: boolean) => {
    setDelegate(keep)
    preview.mutate({ zoneFile: text, delegate: keep })
  }
  const changeText = (next: string) => {
    form.setValue('zoneFile', next)
    textChanged()
  }

  const apply = useMutation({
    mutationFn: () => applyImport(domainId, text, delegate),
    onSuccess: (done) => {
      toast({
        title: 'Zone file imported',
        description: `${(done.add ?? []).length} added, ${(done.change ?? []).length} changed, ${(done.remove ?? []).length} removed.`,
      })
      void queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domainId).queryKey })
      onClose()
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Import failed', description: errorText(error) })
    },
  })
  const busy = preview.isPending || apply.isPending
  const rules = useRules()

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    // The largest file the server reads (GET /api/rules); it checks again.
    const maxBytes = rules?.dns.maxZoneFileBytes
    if (maxBytes !== undefined && file.size > maxBytes) {
      changeText('')
      setFileProblem(`${file.name} is larger than ${maxBytes / 1024} KB.`)
      return
    }
    try {
      changeText(await readText(file))
    } catch {
      setFileProblem(`${file.name} could not be read.`)
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !apply.isPending) onClose()
      }}
    >
      <DialogContent hideClose={apply.isPending} wide>
        <DialogHeader>
          <DialogTitle>Import zone file</DialogTitle>
          <DialogDescription>
            Paste a BIND zone file of {apex} or choose one. Its records replace the domain's records.
          </DialogDescription>
        </DialogHeader>

        <div className="mt-5 space-y-2">
          <div className="flex flex-wrap items-end justify-between gap-2">
            <label htmlFor={textId} className="block text-sm font-medium text-slate-700">
              Zone file
            </label>
            <label className={buttonStyles({ variant: 'outline', size: 'sm', className: 'cursor-pointer' })}>
              <FileUp className="h-4 w-4" aria-hidden />
              Choose a .zone or .txt file
              <input
                type="file"
                accept=".zone,.txt,.db,text/plain"
                className="sr-only"
                disabled={busy}
                onChange={(event) => void chooseFile(event)}
              />
            </label>
          </div>
          <Textarea
            id={textId}
            {...form.register('zoneFile', { onChange: textChanged })}
            placeholder={placeholder(apex)}
            rows={8}
            spellCheck={false}
            disabled={apply.isPending}
            className="font-mono text-xs leading-5"
          />
          {fileProblem && (
            <p role="alert" className="text-sm text-red-600">
              {fileProblem}
            </p>
          )}
        </div>

        {preview.isError && (
          <div
            role="alert"
            className="mt-4 flex gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-800 ring-1 ring-inset ring-red-200"
          >
            <AlertCircle className="h-5 w-5 shrink-0 text-red-600" aria-hidden />
            <div>
              <p className="font-medium">The file cannot be imported</p>
              <p className="mt-0.5 break-words">{errorText(preview.error)}</p>
            </div>
          </div>
        )}

        {plan && <PlanView plan={plan} />}

        {hasApexNS && (
          <label className="mt-4 flex gap-3 rounded-xl bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
              checked={delegate}
              disabled={busy}
              onChange={(event) => chooseDelegation(event.target.checked)}
            />
            <span>
              <span className="font-medium text-slate-900">Keep the NS records at the apex</span>
              <span className="block text-slate-600">
                This delegates {apex} away: those name servers answer for it, and nothing else in this file will be
                served.
              </span>
            </span>
          </label>
        )}

        {plan && planSize(plan) > 0 && (
          <p className="mt-4 flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
            <AlertTriangle className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
            <span>
              Applying replaces the records of {apex} with the file's: records not in the file will be removed.
            </span>
          </p>
        )}

        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={apply.isPending}>
            Cancel
          </Button>
          {plan && planSize(plan) > 0 ? (
            <Button onClick={() => apply.mutate()} disabled={busy}>
              {apply.isPending ? 'Importing...' : 'Apply import'}
            </Button>
          ) : (
            <Button
              onClick={() => preview.mutate({ zoneFile: text, delegate })}
              disabled={busy || text.trim() === '' || plan !== undefined}
            >
              {preview.isPending ? 'Checking...' : 'Preview'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

function PlanView({ plan }: { plan: ImportPlan }) {
  const unchanged = plan.unchanged === 1 ? '1 record stays as it is.' : `${plan.unchanged} records stay as they are.`
  const notes = plan.notes.length > 0 && (
    <div className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
      <p className="font-medium">Skipped lines ({plan.notes.length})</p>
      <ul aria-label="Skipped lines" className="mt-1 list-disc space-y-1 pl-5">
        {plan.notes.map((note, i) => (
          <li key={`${note.line}-${i}`}>
            {note.message}
            {note.text && (
              <code className="mt-0.5 block truncate font-mono text-xs text-amber-800" title={note.text}>
                {note.text}
              </code>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
  if (planSize(plan) === 0) {
    return (
      <section aria-label="Import preview" className="mt-4 space-y-3">
        {notes}
        <div className="rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-inset ring-slate-200">
          <p className="font-medium text-slate-900">No changes</p>
          <p className="mt-0.5 text-slate-600">The file matches the current records. {unchanged}</p>
        </div>
      </section>
    )
  }
  return (
    <section aria-label="Import preview" className="mt-4 space-y-3">
      {notes}
      <PlanList title="To add" tone="add" records={plan.add ?? []} />
      <PlanList title="To change" tone="change" records={plan.change ?? []} />
      <PlanList title="To remove" tone="remove" records={plan.remove ?? []} />
      <p className="text-xs text-slate-500">{unchanged}</p>
    </section>
  )
}

const tones = {
  add: { heading: 'text-emerald-700', mark: '+', markClass: 'text-emerald-600' },
  change: { heading: 'text-amber-700', mark: '~', markClass: 'text-amber-600' },
  remove: { heading: 'text-red-700', mark: '−', markClass: 'text-red-600' },
} as const

function PlanList({ title, tone, records }: { title: string; tone: keyof typeof tones; records: DnsRecord[] }) {
  const style = tones[tone]
  const headingId = useId()
  return (
    <div className="rounded-xl ring-1 ring-inset ring-slate-200">
      <h3 id={headingId} className={`border-b border-slate-200 px-3 py-2 text-sm font-semibold ${style.heading}`}>
        {title} ({records.length})
      </h3>
      {records.length === 0 ? (
        <p className="px-3 py-2 text-xs text-slate-500">None</p>
      ) : (
        <ul aria-labelledby={headingId} className="max-h-40 divide-y divide-slate-100 overflow-y-auto">
          {records.map((record, index) => (
            <li
              key={`${record.id}-${index}`}
              className="grid grid-cols-[1rem_3.5rem_minmax(0,1fr)] gap-x-2 px-3 py-1.5 font-mono text-xs text-slate-800 sm:grid-cols-[1rem_3.5rem_minmax(0,9rem)_minmax(0,1fr)_auto]"
            >
              <span aria-hidden className={style.markClass}>
                {style.mark}
              </span>
              <span className="font-semibold">{record.type}</span>
              <span className="break-all">{record.name}</span>
              <span className="col-start-3 break-all text-slate-600 sm:col-start-auto">{displayContent(record)}</span>
              <span className="col-start-3 text-slate-500 sm:col-start-auto sm:text-right">TTL {record.ttl}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
