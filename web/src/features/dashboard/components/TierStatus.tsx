import { useForm } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Award, Clock } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Select } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { allowanceText, useRegistrarTiers, type RegistrarTierInfo } from '@/lib/registrarTiers'
import type { RegistrarTier } from '@/lib/session'
import { applyForTier, MY_TIER_URL, myTierQueryOptions, type TierApplication } from '../api/tier'
import { AllowanceUsage } from './AllowanceUsage'

type HigherTier = TierApplication['requestedTier']

/**
 * The registrar's partnership tier: a pending application, the answer to
 * the last one, and a way to apply for a higher tier. Tiers above basic are
 * granted by our team, never chosen.
 */
export function TierStatus() {
  const { data, isError } = useQuery(myTierQueryOptions())
  const { tiers, tierOf } = useRegistrarTiers()
  const current = tierOf(data?.tier)
  if (isError || !data || !current) return null
  const { application } = data
  const nameOf = (key: RegistrarTier) => tierOf(key)?.name ?? key
  // The server lists tiers cheapest first; one applies for those above one's own.
  const higher = tiers.slice(tiers.indexOf(current) + 1)
  const pending = application?.status === 'pending' ? application : null
  const declined = application?.status === 'declined' ? application : null

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle className="flex items-center gap-2">
            <Award className="h-5 w-5 text-brand-600" aria-hidden />
            Partnership tier: {current.name}
          </CardTitle>
          <CardDescription>
            {allowanceText(current)}, at ${current.pricePerDomain} per domain per year.
          </CardDescription>
        </div>
        {pending && (
          <Badge tone="premium">
            <Clock className="h-3.5 w-3.5" aria-hidden />
            Application pending
          </Badge>
        )}
      </CardHeader>
      <CardContent className="space-y-3 text-sm text-slate-700">
        <AllowanceUsage />
        {pending && (
          <p role="status">
            Your application for the {nameOf(pending.requestedTier)} tier is pending review. You keep{' '}
            {current.name} prices until our team approves it; we will email you the decision.
          </p>
        )}
        {declined && (
          <p>
            Your application for the {nameOf(declined.requestedTier)} tier was declined
            {declined.reason ? `: ${declined.reason}` : '.'}
          </p>
        )}
        {!pending && higher.length > 0 && <ApplyForm tiers={higher} />}
      </CardContent>
    </Card>
  )
}

function ApplyForm({ tiers }: { tiers: RegistrarTierInfo[] }) {
  const queryClient = useQueryClient()
  const form = useForm<{ tier: HigherTier }>({ defaultValues: { tier: tiers[0].key as HigherTier } })
  const mutation = useMutation({
    mutationFn: applyForTier,
    onSuccess: async () => {
      toast({ title: 'Application sent', description: 'Our team will review it and email you the decision.' })
      await queryClient.invalidateQueries({ queryKey: [MY_TIER_URL] })
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Could not apply',
        description: serverMessage(error) ?? 'An unexpected error occurred',
      })
    },
  })
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={form.handleSubmit(({ tier }) => mutation.mutate(tier))}
    >
      <label className="space-y-1.5">
        <span className="block text-sm font-medium text-slate-700">Apply for a higher tier</span>
        <Select className="w-56" {...form.register('tier')}>
          {tiers.map((option) => (
            <option key={option.key} value={option.key}>
              {option.name} (${option.pricePerDomain} per domain)
            </option>
          ))}
        </Select>
      </label>
      <Button type="submit" variant="outline" disabled={mutation.isPending}>
        {mutation.isPending ? 'Applying...' : 'Apply'}
      </Button>
    </form>
  )
}
