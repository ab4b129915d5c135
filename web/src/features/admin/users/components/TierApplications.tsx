import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertCircle, ArrowRight, LoaderCircle } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/form'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import {
  approveTierApplication,
  AUDIT_URL,
  declineTierApplication,
  pendingTierApplicationsQueryOptions,
  TIER_APPLICATIONS_URL,
  USERS_URL,
  type AdminTierApplication,
} from '../api'

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })
const tierName = (t: string) => t[0].toUpperCase() + t.slice(1)

/** Registrars' pending applications for a higher tier, to approve or decline. */
export function TierApplications() {
  const query = useQuery(pendingTierApplicationsQueryOptions())
  return (
    <Card>
      <CardHeader>
        <CardTitle>Tier applications</CardTitle>
        <CardDescription>
          Registrars who applied for the Premium or Enterprise tier. They stay on their tier until you approve; the
          applicant is emailed either way.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="flex items-center justify-center gap-3 py-8 text-slate-500">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading applications...
          </div>
        ) : query.isError ? (
          <div role="alert" className="flex flex-col items-center gap-2 py-8 text-center">
            <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
            <p className="font-medium text-slate-900">Could not load tier applications</p>
            <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
          </div>
        ) : query.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No applications are waiting.</p>
        ) : (
          <ul aria-label="Tier applications" className="divide-y divide-slate-100">
            {query.data.map((a) => (
              <ApplicationRow key={a.id} application={a} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

function ApplicationRow({ application: a }: { application: AdminTierApplication }) {
  const queryClient = useQueryClient()
  const [declining, setDeclining] = useState(false)
  const declineForm = useForm<{ reason: string }>({ defaultValues: { reason: '' } })
  const reason = declineForm.watch('reason')
  const mutation = useMutation({
    mutationFn: (decision: { approve: true } | { approve: false; reason: string }) =>
      decision.approve ? approveTierApplication(a.id) : declineTierApplication(a.id, decision.reason),
    onSuccess: (_, decision) =>
      toast({
        title: decision.approve ? 'Application approved' : 'Application declined',
        description: decision.approve
          ? `${a.username} is now on the ${tierName(a.requestedTier)} tier.`
          : `${a.username} stays on the ${tierName(a.currentTier)} tier.`,
      }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Error', description: serverMessage(error) || 'Failed to decide' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: [TIER_APPLICATIONS_URL] })
      void queryClient.invalidateQueries({ queryKey: [USERS_URL] })
      void queryClient.invalidateQueries({ queryKey: [AUDIT_URL] })
    },
  })
  return (
    <li
      aria-label={`Application of ${a.username}`}
      className="flex flex-col gap-3 py-4 text-sm md:flex-row md:items-center"
    >
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900">
          {a.username} <span className="font-normal text-slate-500">· {a.email}</span>
        </p>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
          <Badge tone="neutral">{tierName(a.currentTier)}</Badge>
          <ArrowRight className="h-3.5 w-3.5" aria-label="to" />
          <Badge tone="premium">{tierName(a.requestedTier)}</Badge>
          <span>
            applied <time dateTime={a.createdAt}>{day.format(new Date(a.createdAt))}</time>
          </span>
        </p>
      </div>
      {declining ? (
        <form
          className="flex flex-col gap-2 sm:flex-row"
          onSubmit={declineForm.handleSubmit((values) => mutation.mutate({ approve: false, reason: values.reason }))}
        >
          <label className="block">
            <span className="sr-only">Reason for {a.username}</span>
            <Input
              required
              maxLength={500}
              placeholder="Reason (emailed to the applicant)"
              className="h-9 sm:w-72"
              {...declineForm.register('reason')}
            />
          </label>
          <div className="flex gap-2">
            <Button type="submit" size="sm" variant="destructive" disabled={mutation.isPending || !reason.trim()}>
              Decline
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setDeclining(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex gap-2">
          <Button size="sm" disabled={mutation.isPending} onClick={() => mutation.mutate({ approve: true })}>
            Approve
          </Button>
          <Button size="sm" variant="outline" disabled={mutation.isPending} onClick={() => setDeclining(true)}>
            Decline...
          </Button>
        </div>
      )}
    </li>
  )
}
