import { useState } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, Clock, Forward, Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { DataTable, EmptyState, type Column } from '@/components/ui/DataTable'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import {
  CATCH_ALL,
  deleteRule,
  forwardingQueryOptions,
  resendLink,
  ruleAddress,
  type ForwardingDestination,
  type ForwardingRule,
} from '../api/forwarding'
import { errorText } from '../forwardingText'
import { EditRuleDialog } from './EditRuleDialog'

/** The rules as a table, or as cards on a phone: each address with where it goes, edit and delete. */
export function RuleList({ domainId, apex, rules }: { domainId: number; apex: string; rules: ForwardingRule[] }) {
  const queryClient = useQueryClient()
  const statusQuery = forwardingQueryOptions(domainId)
  const [editing, setEditing] = useState<ForwardingRule | null>(null)
  const [deleting, setDeleting] = useState<ForwardingRule | null>(null)

  const remove = useMutation({
    mutationFn: (rule: ForwardingRule) => deleteRule(domainId, rule.id),
    onSuccess: (_, rule) => {
      setDeleting(null)
      toast({
        title: 'Forwarding rule deleted',
        description: `Mail to ${ruleAddress(rule.alias, apex)} is no longer forwarded.`,
      })
    },
    onError: (error) => {
      setDeleting(null)
      toast({ variant: 'destructive', title: 'Failed to delete forwarding rule', description: errorText(error) })
    },
    // A failed delete may still have happened (or the rule was already gone): reload either way.
    onSettled: () => queryClient.invalidateQueries(statusQuery),
  })

  const resend = useMutation({
    mutationFn: (address: string) => resendLink(domainId, address),
    onSuccess: (_, address) =>
      toast({ title: 'Confirmation link sent', description: `We emailed a new link to ${address}.` }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Failed to send the link', description: errorText(error) }),
  })

  const destinations = (rule: ForwardingRule) => (
    <Destinations
      destinations={rule.destinations}
      resendingAddress={resend.isPending ? resend.variables : undefined}
      onResend={(address) => resend.mutate(address)}
    />
  )
  const actions = (rule: ForwardingRule) => (
    <div className="flex shrink-0 justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Edit rule ${ruleAddress(rule.alias, apex)}`}
        title="Edit"
        onClick={() => setEditing(rule)}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete rule ${ruleAddress(rule.alias, apex)}`}
        title="Delete"
        disabled={remove.isPending && remove.variables?.id === rule.id}
        onClick={() => setDeleting(rule)}
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  )

  const columns: Column<ForwardingRule>[] = [
    {
      header: 'Address',
      width: 'w-[34%]',
      rowHeader: true,
      className: 'break-all',
      cell: (rule) => ruleAddress(rule.alias, apex),
    },
    { header: 'Forwards to', cell: destinations },
    { header: 'Actions', align: 'right', width: 'w-28', cell: actions },
  ]

  return (
    <>
      <DataTable
        label="Forwarding rules"
        rows={rules}
        rowKey={(rule) => rule.id}
        columns={columns}
        fixed
        rowClassName={() => 'align-top'}
        empty={
          <EmptyState
            className="border-t border-slate-200 -mx-6 px-6"
            icon={
              <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
                <Forward className="h-6 w-6" aria-hidden />
              </span>
            }
            title="No forwarding rules yet"
            text={`Add a rule below to forward mail sent to an address at ${apex}.`}
          />
        }
        stacked={(rule) => (
          <>
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 break-all pt-2 font-medium text-slate-900">{ruleAddress(rule.alias, apex)}</p>
              {actions(rule)}
            </div>
            <div className="mt-1">{destinations(rule)}</div>
          </>
        )}
      />
      {rules.some((rule) => rule.destinations.some((d) => !d.verified)) && (
        <p className="mt-4 text-xs text-slate-500">
          An address receives mail only after its owner opens the confirmation link we emailed to it.
        </p>
      )}

      <EditRuleDialog domainId={domainId} apex={apex} rule={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete the rule for ${ruleAddress(deleting.alias, apex)}?` : ''}
        description={
          deleting?.alias === CATCH_ALL
            ? `Mail to addresses of ${apex} without a rule of their own will no longer be forwarded.`
            : `Mail to ${deleting ? ruleAddress(deleting.alias, apex) : ''} will no longer be forwarded.`
        }
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </>
  )
}

function Destinations({
  destinations,
  resendingAddress,
  onResend,
}: {
  destinations: ForwardingDestination[]
  resendingAddress: string | undefined
  onResend: (address: string) => void
}) {
  return (
    <ul className="space-y-2">
      {destinations.map((destination) => (
        <li key={destination.address} className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="break-all text-slate-800">{destination.address}</span>
          {destination.verified ? (
            <Badge tone="success">
              <CheckCircle2 className="h-3 w-3" aria-hidden />
              Verified
            </Badge>
          ) : (
            <>
              <Badge tone="premium">
                <Clock className="h-3 w-3" aria-hidden />
                Waiting for confirmation
              </Badge>
              <Button
                variant="ghost"
                size="sm"
                className="h-7 px-2 text-brand-700 hover:text-brand-800"
                aria-label={`Resend link to ${destination.address}`}
                disabled={resendingAddress === destination.address}
                onClick={() => onResend(destination.address)}
              >
                {resendingAddress === destination.address ? <Spinner className="h-3.5 w-3.5" label="Sending" /> : null}
                Resend link
              </Button>
            </>
          )}
        </li>
      ))}
    </ul>
  )
}
