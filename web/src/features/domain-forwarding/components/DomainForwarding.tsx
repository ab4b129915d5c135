import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Globe, Plus, ServerOff } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { ApiError, serverMessage } from '@/lib/api'
import { dnsRecordsQueryOptions } from '@/lib/dns'
import type { Domain } from '@/lib/domains'
import { deleteForward, domainForwardingQueryOptions, type DomainForward } from '../api/domainForwarding'
import { errorText } from '../forwardText'
import { ForwardDialog } from './ForwardDialog'
import { ForwardList } from './ForwardList'

/** One opening of the add/edit dialog: `run` gives each its own fresh form. */
type Editor = { run: number; forward: DomainForward | null }

/**
 * The Domain Forwarding tab: the host names of the domain that redirect to
 * another website, each with its target, status, options and certificate;
 * a dialog to add or change one (which asks first when it would replace the
 * host's own records), delete with confirmation, and the addresses
 * forwarded hosts point at.
 */
export function DomainForwarding({ domain }: { domain: Domain }) {
  const apex = `${domain.name}${domain.extension}`
  const queryClient = useQueryClient()
  const forwardingQuery = domainForwardingQueryOptions(domain.id)
  const { data: forwarding, isPending, isError, error, refetch, isRefetching } = useQuery(forwardingQuery)
  const [editor, setEditor] = useState<Editor | null>(null)
  const [deleting, setDeleting] = useState<DomainForward | null>(null)
  const openEditor = (forward: DomainForward | null) => setEditor((prev) => ({ run: (prev?.run ?? 0) + 1, forward }))

  const remove = useMutation({
    mutationFn: (forward: DomainForward) => deleteForward(domain.id, forward.host),
    onSuccess: (_, forward) => {
      setDeleting(null)
      toast({ title: 'Forward deleted', description: `${forward.name} no longer forwards to ${forward.target}.` })
    },
    onError: (failure) => {
      setDeleting(null)
      toast({ variant: 'destructive', title: 'Failed to delete forward', description: errorText(failure) })
    },
    // A failed delete may still have happened (or the forward was already
    // gone): reload either way, with the records the forward had added.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries(forwardingQuery),
        queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domain.id).queryKey }),
      ]),
  })

  if (isPending || (isError && isRefetching)) {
    return (
      <Card>
        <div className="flex items-center justify-center gap-3 py-16 text-slate-600">
          <Spinner />
          <span>Loading domain forwarding...</span>
        </div>
      </Card>
    )
  }
  if (isError) {
    // 503: the server has no forwarding address; trying again will not change that.
    if (error instanceof ApiError && error.status === 503) {
      return (
        <Card>
          <div className="flex flex-col items-center gap-3 px-6 py-16 text-center">
            <ServerOff className="h-8 w-8 text-slate-400" aria-hidden />
            <p className="text-slate-700">{serverMessage(error) || 'Domain forwarding is not available.'}</p>
          </div>
        </Card>
      )
    }
    return (
      <Card>
        <div className="flex flex-col items-center gap-4 py-16 text-center">
          <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
          <p className="text-slate-700">Failed to load domain forwarding. Please try again.</p>
          <Button variant="outline" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      </Card>
    )
  }

  const full = forwarding.forwards.length >= forwarding.maxRules
  return (
    <Card>
      <CardHeader className="flex flex-col gap-4 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle className="flex items-center gap-2">
            <Globe className="h-5 w-5 text-brand-600" aria-hidden />
            Domain Forwarding
          </CardTitle>
          <CardDescription>
            Send visitors of {apex} or one of its host names to another website, over HTTP and HTTPS.
          </CardDescription>
        </div>
        <div className="flex items-center justify-between gap-3 sm:justify-end">
          <Badge className="w-fit shrink-0 tabular-nums">
            {forwarding.forwards.length} of {forwarding.maxRules} forwards
          </Badge>
          <Button
            disabled={full}
            title={full ? 'This domain has as many forwards as it may have' : undefined}
            onClick={() => openEditor(null)}
          >
            <Plus className="h-4 w-4" aria-hidden />
            Add forward
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <ForwardList
          forwards={forwarding.forwards}
          apex={apex}
          deletingHost={remove.isPending ? remove.variables?.host : undefined}
          onEdit={openEditor}
          onDelete={setDeleting}
        />
        <div className="mt-6 rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-inset ring-slate-200">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
            <span>Forwarding servers:</span>
            {forwarding.addresses.map((address) => (
              <span key={address} className="break-all font-mono text-slate-900">
                {address}
              </span>
            ))}
          </p>
          <p className="mt-1 text-slate-600">
            A forwarded host name's A and AAAA records point at these addresses, which answer with the redirect. Its
            HTTPS certificate is requested automatically.
          </p>
        </div>
      </CardContent>

      {editor && (
        <ForwardDialog
          key={editor.run}
          domainId={domain.id}
          apex={apex}
          addresses={forwarding.addresses}
          forward={editor.forward}
          onClose={() => setEditor(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Stop forwarding ${deleting.name}?` : ''}
        description={
          deleting
            ? `Visitors of ${deleting.name} will no longer be sent to ${deleting.target}. The records forwarding added to it are removed.`
            : ''
        }
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </Card>
  )
}
