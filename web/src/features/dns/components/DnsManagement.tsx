import { lazy, Suspense, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Download, Network, Plus, Upload, Zap } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import type { Domain } from '@/lib/domains'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { deleteRecord, dnsRecordsQueryOptions, exportZone, type DnsRecord } from '../api/dns'
import { errorText, fullName, saveTextFile } from '../dnsText'
import { DnssecCard } from './DnssecCard'
import { UpdateKeysCard } from './UpdateKeysCard'
import { RecordList } from './RecordList'

// The dialogs' code (forms, Radix Dialog) loads when first wanted, not with the page.
const loadRecordDialog = () => import('./RecordDialog')
const loadImportDialog = () => import('./ZoneImportDialog')
const RecordDialog = lazy(loadRecordDialog)
const ZoneImportDialog = lazy(loadImportDialog)

type Editor = { run: number; record: DnsRecord | null }

/**
 * The DNS Management tab: the domain's records with add, edit and delete,
 * and BIND zone file export and import.
 */
export function DnsManagement({ domain }: { domain: Domain }) {
  const queryClient = useQueryClient()
  const recordsQuery = dnsRecordsQueryOptions(domain.id)
  const { data: records, isPending, isError } = useQuery(recordsQuery)
  const apex = `${domain.name}${domain.extension}`

  // Each opening gets a fresh dialog (run), so a form never shows the last one's leftovers.
  const [editor, setEditor] = useState<Editor | null>(null)
  const [importRun, setImportRun] = useState<number | null>(null)
  const openEditor = (record: DnsRecord | null) => setEditor((prev) => ({ run: (prev?.run ?? 0) + 1, record }))

  const remove = useMutation({
    mutationFn: (record: DnsRecord) => deleteRecord(domain.id, record.id),
    onSuccess: (_, record) => {
      toast({
        title: 'DNS record deleted',
        description: `The ${record.type} record for ${fullName(record.name, apex)} is gone.`,
      })
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Failed to delete DNS record', description: errorText(error) })
    },
    // A failed delete may still have happened (or the record was already gone): reload either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: recordsQuery.queryKey }),
  })

  const confirmDelete = (record: DnsRecord) => {
    if (!window.confirm('Are you sure you want to delete this DNS record?')) return
    remove.mutate(record)
  }

  const exporting = useMutation({
    mutationFn: () => exportZone(domain.id),
    onSuccess: ({ filename, zoneFile }) => saveTextFile(filename, zoneFile),
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Export failed', description: errorText(error) })
    },
  })

  const addButton = (
    <Button onClick={() => openEditor(null)} onPointerEnter={() => void loadRecordDialog()}>
      <Plus className="h-4 w-4" aria-hidden />
      Add Record
    </Button>
  )

  let body
  if (isPending) {
    body = (
      <div className="flex items-center justify-center gap-3 py-16 text-slate-600">
        <Spinner />
        <span>Loading DNS records...</span>
      </div>
    )
  } else if (isError) {
    body = (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
        <p className="text-slate-700">Failed to load DNS records. Please try again.</p>
        <Button variant="outline" onClick={() => window.location.reload()}>
          Retry
        </Button>
      </div>
    )
  } else if (records.length === 0) {
    body = (
      <div className="flex flex-col items-center py-14 text-center">
        <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
          <Network className="h-6 w-6" aria-hidden />
        </span>
        <h3 className="mt-4 text-lg font-semibold text-slate-900">No DNS records found</h3>
        <p className="mt-1 max-w-sm text-sm text-slate-600">
          Add a record to point {apex} at a website or a mail server, or import a zone file.
        </p>
        <div className="mt-6">{addButton}</div>
      </div>
    )
  } else {
    body = (
      <RecordList
        records={records}
        apex={apex}
        deletingId={remove.isPending ? remove.variables?.id : undefined}
        onEdit={openEditor}
        onDelete={confirmDelete}
        onPreloadEditor={() => void loadRecordDialog()}
      />
    )
  }

  const delegated = (records ?? []).some((r) => r.type === 'NS' && r.name === '@')

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader className="flex flex-col gap-4 space-y-0 lg:flex-row lg:items-start lg:justify-between">
          <div className="space-y-1">
            <div className="flex items-center gap-2">
              <CardTitle>DNS Records</CardTitle>
              <HelpTooltip topic="dns-records" userAction="editing DNS records" />
            </div>
            <CardDescription>The records that point {apex} at your services.</CardDescription>
          </div>
          {!isPending && !isError && (
            // Phones: Add Record across the top, the zone file buttons side by side under it.
            <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
              <Button
                variant="outline"
                aria-label="Import zone file"
                onClick={() => setImportRun((run) => (run ?? 0) + 1)}
                onPointerEnter={() => void loadImportDialog()}
              >
                <Upload className="h-4 w-4" aria-hidden />
                <span>
                  Import<span className="hidden sm:inline"> zone file</span>
                </span>
              </Button>
              <Button
                variant="outline"
                aria-label="Export zone file"
                disabled={exporting.isPending}
                onClick={() => exporting.mutate()}
              >
                <Download className="h-4 w-4" aria-hidden />
                {exporting.isPending ? (
                  'Exporting...'
                ) : (
                  <span>
                    Export<span className="hidden sm:inline"> zone file</span>
                  </span>
                )}
              </Button>
              {records.length > 0 && (
                <div className="order-first col-span-2 grid sm:order-none sm:flex">{addButton}</div>
              )}
            </div>
          )}
        </CardHeader>
        <CardContent>
          {body}
          <p className="mt-6 flex gap-2 rounded-xl bg-slate-50 p-3 text-xs text-slate-600 ring-1 ring-inset ring-slate-200">
            <Zap className="h-4 w-4 shrink-0 text-brand-600" aria-hidden />
            <span>
              Changes are live on Nameport's DNS servers within seconds. Resolvers elsewhere may keep a cached answer
              for up to the record's TTL.
            </span>
          </p>
        </CardContent>

        {editor && (
          <Suspense fallback={null}>
            <RecordDialog
              key={editor.run}
              domainId={domain.id}
              apex={apex}
              record={editor.record}
              onClose={() => setEditor(null)}
            />
          </Suspense>
        )}
        {importRun !== null && (
          <Suspense fallback={null}>
            <ZoneImportDialog key={importRun} domainId={domain.id} apex={apex} onClose={() => setImportRun(null)} />
          </Suspense>
        )}
      </Card>
      {!isPending && !isError && <DnssecCard domainId={domain.id} apex={apex} delegated={delegated} />}
      {!isPending && !isError && <UpdateKeysCard domainId={domain.id} apex={apex} />}
    </div>
  )
}
