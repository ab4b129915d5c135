import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { ShieldCheck } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Switch } from '@/components/ui/Switch'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { twoFactorQueryOptions } from '@/features/dashboard/api/accountSecurity'
import {
  AUDIT_URL,
  setTwoFactorPolicy,
  twoFactorPolicyQueryOptions,
  TWO_FACTOR_POLICY_URL,
  type TwoFactorPolicy,
} from '../api'

const rows: { key: keyof TwoFactorPolicy; title: string; detail: string }[] = [
  {
    key: 'requireAdmins',
    title: 'Require two-factor sign-in for every admin',
    detail:
      'Admins created from now on are always held. On: older admins too, you included, are held from the admin tools until they set up an authenticator app or a passkey in Account Settings.',
  },
  {
    key: 'requireRegistrars',
    title: 'Require two-factor sign-in for registrars',
    detail:
      'Registrars without a second factor are held from the registrar tools until they set one up. Their own domains and their API keys keep working.',
  },
]

/** The Users tab's two-factor policy: which accounts are held until they set up a second factor. */
export function TwoFactorPolicyCard() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const policy = useQuery(twoFactorPolicyQueryOptions())
  // The admin's own second factor: requiring it of every admin holds an
  // admin without one too, so it is asked first and then sent to set one up.
  const mine = useQuery(twoFactorQueryOptions())
  const [confirming, setConfirming] = useState<TwoFactorPolicy | null>(null)
  const save = useMutation({
    mutationFn: setTwoFactorPolicy,
    onSuccess: async (saved) => {
      setConfirming(null)
      queryClient.setQueryData([TWO_FACTOR_POLICY_URL], saved)
      toast({ title: 'Success', description: 'Two-factor policy saved' })
      const status = await queryClient.fetchQuery({ ...twoFactorQueryOptions(), staleTime: 0 })
      if (status.setupEnforced) {
        // Held now: Account Settings says why and sets one up.
        void navigate({ to: '/dashboard' })
        return
      }
      void queryClient.invalidateQueries({ queryKey: [AUDIT_URL] })
    },
    onError: (error) => {
      setConfirming(null)
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to save the two-factor policy',
        variant: 'destructive',
      })
    },
  })
  const change = (next: TwoFactorPolicy) => {
    if (next.requireAdmins && !policy.data?.requireAdmins && mine.data && !mine.data.on) setConfirming(next)
    else save.mutate(next)
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-brand-600" aria-hidden />
          Two-factor policy
        </CardTitle>
        <CardDescription>
          Which accounts must set up two-factor sign-in before using the tools of their role.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {policy.isPending ? (
          <Spinner label="Loading the two-factor policy" />
        ) : policy.isError ? (
          <p className="text-sm text-red-600">
            {serverMessage(policy.error) ?? 'Failed to load the two-factor policy'}
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {rows.map((row) => (
              <li key={row.key} className="flex items-start justify-between gap-4 py-3 first:pt-0 last:pb-0">
                <div className="min-w-0">
                  <p className="text-sm font-medium text-slate-900">{row.title}</p>
                  <p className="mt-0.5 text-sm text-slate-500">{row.detail}</p>
                </div>
                <Switch
                  checked={policy.data[row.key]}
                  label={row.title}
                  disabled={save.isPending}
                  onChange={(on) => change({ ...policy.data, [row.key]: on })}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming !== null}
        title="Require two-factor sign-in of every admin?"
        description="You have no authenticator app or passkey yet: the admin tools close for you too until you set one up in Account Settings."
        action="Require it"
        variant="primary"
        pending={save.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && save.mutate(confirming)}
      />
    </Card>
  )
}
