import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, Mail } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { ApiError } from '@/lib/api'
import { dnsRecordsQueryOptions } from '@/lib/dns'
import type { Domain } from '@/lib/domains'
import { forwardingQueryOptions, setForwarding, type Forwarding } from '../api/forwarding'
import { errorText } from '../forwardingText'
import { AddRuleForm } from './AddRuleForm'
import { ForwardingLog } from './ForwardingLog'
import { ReplaceRecordsDialog } from './ReplaceRecordsDialog'
import { RuleList } from './RuleList'

/**
 * The Email Forwarding tab: forwarding on or off (the MX and SPF records it
 * adds), the rules with their addresses and whether each is confirmed, a
 * form to add one, and the log of the last messages.
 */
export function EmailForwarding({ domain }: { domain: Domain }) {
  const apex = `${domain.name}${domain.extension}`
  const { data: forwarding, isPending, isError, refetch, isRefetching } = useQuery(forwardingQueryOptions(domain.id))

  if (isPending || (isError && isRefetching)) {
    return (
      <Card>
        <div className="flex items-center justify-center gap-3 py-16 text-slate-600">
          <Spinner />
          <span>Loading email forwarding...</span>
        </div>
      </Card>
    )
  }
  if (isError) {
    return (
      <Card>
        <div className="flex flex-col items-center gap-4 py-16 text-center">
          <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
          <p className="text-slate-700">Failed to load email forwarding. Please try again.</p>
          <Button variant="outline" onClick={() => void refetch()}>
            Retry
          </Button>
        </div>
      </Card>
    )
  }

  return (
    <div className="space-y-6">
      <ForwardingStatus domainId={domain.id} apex={apex} forwarding={forwarding} />
      <Card>
        <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1">
            <CardTitle>Forwarding rules</CardTitle>
            <CardDescription>Where mail to each address at {apex} goes.</CardDescription>
          </div>
          <Badge className="w-fit shrink-0 tabular-nums">
            {forwarding.rules.length} of {forwarding.maxRules} rules
          </Badge>
        </CardHeader>
        <CardContent>
          <RuleList domainId={domain.id} apex={apex} rules={forwarding.rules} />
          <AddRuleForm domainId={domain.id} apex={apex} />
        </CardContent>
      </Card>
      <ForwardingLog domainId={domain.id} apex={apex} />
    </div>
  )
}

/** On or off, the mail host, and the switch (which asks first when it would replace another service's records). */
function ForwardingStatus({ domainId, apex, forwarding }: { domainId: number; apex: string; forwarding: Forwarding }) {
  const queryClient = useQueryClient()
  const statusQuery = forwardingQueryOptions(domainId)
  const [confirmingReplace, setConfirmingReplace] = useState(false)

  const toggle = useMutation({
    mutationFn: ({ enabled, replace }: { enabled: boolean; replace: boolean }) =>
      setForwarding(domainId, enabled, replace),
    onSuccess: (updated) => {
      setConfirmingReplace(false)
      queryClient.setQueryData(statusQuery.queryKey, updated)
      toast(
        updated.enabled
          ? { title: 'Email forwarding turned on', description: `Mail for ${apex} now goes to ${updated.mailHost}.` }
          : {
              title: 'Email forwarding turned off',
              description: `The MX and SPF records are removed from ${apex}. Your rules are kept.`,
            },
      )
    },
    onError: (error) => {
      setConfirmingReplace(false)
      toast({ variant: 'destructive', title: 'Failed to change email forwarding', description: errorText(error) })
      // A 409: mail records appeared since the page loaded; reloading lists them, so the next try asks first.
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries(statusQuery)
    },
    // On and off add and remove the MX and SPF records the DNS tab lists.
    onSettled: () => queryClient.invalidateQueries({ queryKey: dnsRecordsQueryOptions(domainId).queryKey }),
  })

  const turnOn = () => {
    if (forwarding.replaces.length > 0) setConfirmingReplace(true)
    else toggle.mutate({ enabled: true, replace: false })
  }

  const { enabled, mailHost } = forwarding
  return (
    <Card>
      <CardHeader className="flex flex-col gap-4 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle className="flex items-center gap-2">
            <Mail className="h-5 w-5 text-brand-600" aria-hidden />
            Email Forwarding
          </CardTitle>
          <CardDescription>Forward mail sent to addresses at {apex} to inboxes you already use.</CardDescription>
        </div>
        <div className="flex items-center justify-between gap-3 sm:justify-end">
          <p className="flex items-center gap-2 text-sm text-slate-700">
            Status:
            {enabled ? <Badge tone="success">On</Badge> : <Badge tone="muted">Off</Badge>}
          </p>
          <Button
            variant={enabled ? 'outline' : 'primary'}
            disabled={toggle.isPending}
            aria-label={enabled ? 'Turn off email forwarding' : 'Turn on email forwarding'}
            onClick={() => (enabled ? toggle.mutate({ enabled: false, replace: false }) : turnOn())}
          >
            {toggle.isPending ? 'Saving...' : enabled ? 'Turn off' : 'Turn on'}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        <div className="rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-inset ring-slate-200">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-slate-700">
            <span>Mail server (MX):</span>
            <span className="break-all font-mono text-slate-900">{mailHost}</span>
          </p>
          <p className="mt-1 text-slate-600">
            {enabled
              ? `${apex}'s MX record names this server, which forwards mail by the rules below.`
              : `Turning forwarding on points ${apex}'s MX record at this server and adds an SPF record; turning it off removes both and keeps your rules.`}
          </p>
        </div>
      </CardContent>

      <ReplaceRecordsDialog
        open={confirmingReplace}
        apex={apex}
        records={forwarding.replaces}
        pending={toggle.isPending}
        onCancel={() => setConfirmingReplace(false)}
        onConfirm={() => toggle.mutate({ enabled: true, replace: true })}
      />
    </Card>
  )
}
