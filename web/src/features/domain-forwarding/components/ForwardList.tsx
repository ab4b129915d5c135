import { ArrowRight, Clock, Globe, Pencil, ShieldAlert, ShieldCheck, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { DataTable, EmptyState, type Column } from '@/components/ui/DataTable'
import { formatDate } from '@/lib/format'
import type { DomainForward } from '../api/domainForwarding'
import { statusLabel } from '../forwardText'

/**
 * The forwards as a table, or as cards on a phone: each host name with
 * where it goes (status and options), its certificate, edit and delete.
 */
export function ForwardList({
  forwards,
  apex,
  deletingHost,
  onEdit,
  onDelete,
}: {
  forwards: DomainForward[]
  apex: string
  deletingHost: string | undefined
  onEdit: (forward: DomainForward) => void
  onDelete: (forward: DomainForward) => void
}) {
  const actions = (forward: DomainForward) => (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit forward ${forward.name}`}
        title="Edit"
        onClick={() => onEdit(forward)}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete forward ${forward.name}`}
        title="Delete"
        disabled={deletingHost === forward.host}
        onClick={() => onDelete(forward)}
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  )

  const columns: Column<DomainForward>[] = [
    { header: 'Host name', width: 'w-[28%]', rowHeader: true, className: 'break-all', cell: (f) => f.name },
    { header: 'Forwards to', cell: (f) => <Target forward={f} /> },
    { header: 'Certificate', width: 'w-[24%]', cell: (f) => <CertificateState certificate={f.certificate} /> },
    { header: 'Actions', align: 'right', width: 'w-28', cell: actions },
  ]

  return (
    <DataTable
      label="Domain forwards"
      rows={forwards}
      rowKey={(f) => f.id}
      columns={columns}
      fixed
      stackBelow="md"
      rowClassName={() => 'align-top'}
      empty={
        <EmptyState
          className="-mx-6 border-t border-slate-200 px-6"
          icon={
            <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
              <Globe className="h-6 w-6" aria-hidden />
            </span>
          }
          title="No forwards yet"
          text={`Add a forward to send visitors of ${apex} or one of its host names to another website.`}
        />
      }
      stacked={(f) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <p className="min-w-0 break-all pt-2 font-medium text-slate-900">{f.name}</p>
            {actions(f)}
          </div>
          <div className="mt-1 space-y-2">
            <Target forward={f} />
            <CertificateState certificate={f.certificate} />
          </div>
        </>
      )}
    />
  )
}

/** Where a forward goes: the target, then the status and the options as badges. */
function Target({ forward }: { forward: DomainForward }) {
  return (
    <div className="space-y-1.5">
      <p className="flex min-w-0 items-start gap-1.5">
        <ArrowRight className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden />
        <span className="min-w-0 break-all font-mono text-[13px] text-slate-800">{forward.target}</span>
      </p>
      <div className="flex flex-wrap gap-1.5">
        <Badge tone="brand" className="tabular-nums">
          {statusLabel(forward.status)}
        </Badge>
        {forward.keepPath && <Badge>Keeps path</Badge>}
        {forward.keepQuery && <Badge>Keeps query</Badge>}
      </div>
    </div>
  )
}

/**
 * The state of a host's HTTPS certificate: pending, issued until its date,
 * or failed with the CA's message (also shown under an issued one whose
 * renewal failed).
 */
function CertificateState({ certificate }: { certificate: DomainForward['certificate'] }) {
  const failure = certificate.error ? (
    <p className="flex items-start gap-1.5 text-xs text-red-700">
      <ShieldAlert className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
      <span className="min-w-0 [overflow-wrap:anywhere]">
        {certificate.state === 'failed' ? 'Failed' : 'Renewal failed'}: {certificate.error}
      </span>
    </p>
  ) : null
  switch (certificate.state) {
    case 'issued':
      return (
        <div className="space-y-1">
          <Badge tone="success">
            <ShieldCheck className="h-3 w-3" aria-hidden />
            {certificate.notAfter ? `Issued until ${formatDate(certificate.notAfter)}` : 'Issued'}
          </Badge>
          {failure}
        </div>
      )
    case 'failed':
      return (
        failure ?? (
          <p className="flex items-center gap-1.5 text-xs text-red-700">
            <ShieldAlert className="h-3.5 w-3.5 shrink-0" aria-hidden />
            Failed
          </p>
        )
      )
    default:
      return (
        <Badge tone="premium">
          <Clock className="h-3 w-3" aria-hidden />
          Pending
        </Badge>
      )
  }
}
