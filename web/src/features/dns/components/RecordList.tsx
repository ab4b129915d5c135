import { Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { Spinner } from '@/components/ui/Spinner'
import type { DnsRecord } from '../api/dns'
import { fullName } from '../dnsText'
import { displayContent } from '../recordForm'

/** The records as a table, or as cards on a phone, each with edit and delete. */
export function RecordList({
  records,
  apex,
  deletingId,
  onEdit,
  onDelete,
  onPreloadEditor,
}: {
  records: DnsRecord[]
  apex: string
  deletingId: number | undefined
  onEdit: (record: DnsRecord) => void
  onDelete: (record: DnsRecord) => void
  onPreloadEditor: () => void
}) {
  const actions = (record: DnsRecord) => (
    <RecordActions
      record={record}
      deleting={deletingId === record.id}
      onEdit={() => onEdit(record)}
      onDelete={() => onDelete(record)}
      onPreloadEditor={onPreloadEditor}
    />
  )
  const columns: Column<DnsRecord>[] = [
    { header: 'Type', cell: (record) => <TypeBadge type={record.type} />, width: 'w-24' },
    {
      header: 'Name',
      width: 'w-[28%]',
      cell: (record) => (
        <>
          <span className="block break-all font-medium text-slate-900">{record.name}</span>
          <span className="block break-all text-xs text-slate-500">{fullName(record.name, apex)}</span>
        </>
      ),
    },
    { header: 'Content', cell: displayContent, className: 'break-all font-mono text-xs leading-5 text-slate-800' },
    { header: 'TTL', cell: (record) => record.ttl, width: 'w-20', className: 'tabular-nums text-slate-600' },
    { header: 'Actions', align: 'right', cell: actions, width: 'w-28' },
  ]
  return (
    <DataTable
      label="DNS records"
      rows={records}
      rowKey={(record) => record.id}
      columns={columns}
      fixed
      rowClassName={() => 'align-top'}
      // Phones get a stacked list: long contents (TXT, DKIM keys) need the full width.
      stacked={(record) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <div className="flex items-center gap-2">
                <TypeBadge type={record.type} />
                <span className="break-all font-medium text-slate-900">{record.name}</span>
              </div>
              <p className="mt-0.5 break-all text-xs text-slate-500">{fullName(record.name, apex)}</p>
            </div>
            {actions(record)}
          </div>
          <p className="mt-2 break-all rounded-md bg-slate-50 px-2 py-1.5 font-mono text-xs text-slate-800">
            {displayContent(record)}
          </p>
          <p className="mt-1.5 text-xs text-slate-500">TTL {record.ttl}</p>
        </>
      )}
    />
  )
}

function TypeBadge({ type }: { type: string }) {
  return (
    <Badge tone="brand" className="min-w-[3.25rem] justify-center font-mono">
      {type}
    </Badge>
  )
}

function RecordActions({
  record,
  deleting,
  onEdit,
  onDelete,
  onPreloadEditor,
}: {
  record: DnsRecord
  deleting: boolean
  onEdit: () => void
  onDelete: () => void
  onPreloadEditor: () => void
}) {
  const what = `${record.type} record ${record.name}`
  return (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit ${what}`}
        title="Edit"
        onClick={onEdit}
        onPointerEnter={onPreloadEditor}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete ${what}`}
        title="Delete"
        disabled={deleting}
        onClick={onDelete}
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
      >
        {deleting ? <Spinner className="h-4 w-4" label="Deleting" /> : <Trash2 className="h-4 w-4" aria-hidden />}
      </Button>
    </div>
  )
}
