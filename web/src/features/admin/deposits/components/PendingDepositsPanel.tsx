import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Building2, Check, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { formatUsd } from '@/lib/format'
import { pendingDepositsQueryOptions, reviewDeposit, type PendingDeposit } from '../api/deposits'

type Decision = 'confirm' | 'reject'

/**
 * Bank transfers waiting for an admin: confirm one once the money has
 * arrived (the wallet is credited and the receipt mailed), or reject it.
 */
export function PendingDepositsPanel() {
  const query = useQuery(pendingDepositsQueryOptions())
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState<number | null>(null)
  const mutation = useMutation({
    mutationFn: ({ deposit, decision }: { deposit: PendingDeposit; decision: Decision }) =>
      reviewDeposit(deposit.id, decision),
    onMutate: ({ deposit }) => setBusy(deposit.id),
    onSuccess: (_, { deposit, decision }) => {
      toast({
        title: decision === 'confirm' ? 'Deposit confirmed' : 'Deposit rejected',
        description:
          decision === 'confirm'
            ? `${formatUsd(deposit.amount)} has been added to ${deposit.username || 'the account'}'s wallet.`
            : `The deposit of ${formatUsd(deposit.amount)} by ${deposit.username || 'the account'} was rejected.`,
      })
    },
    onError: (failure) => {
      toast({ variant: 'destructive', title: 'Error', description: serverMessage(failure) || 'Failed to review deposit' })
    },
    onSettled: () => {
      setBusy(null)
      void queryClient.invalidateQueries({ queryKey: pendingDepositsQueryOptions().queryKey })
    },
  })
  const deposits = query.data ?? []

  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending bank transfers</CardTitle>
        <CardDescription>
          Deposits by bank transfer wait here until you confirm that the money has arrived. Confirming credits the
          wallet and mails the receipt; rejecting leaves the wallet as it is.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <p className="flex items-center gap-2 text-slate-600" role="status">
            <Spinner className="h-4 w-4" label="Loading pending deposits" />
            Loading pending deposits...
          </p>
        ) : query.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {serverMessage(query.error) || 'Failed to load pending deposits'}
          </p>
        ) : deposits.length === 0 ? (
          <p className="text-sm text-slate-600">No bank transfers are waiting for confirmation.</p>
        ) : (
          <ul aria-label="Pending bank transfers" className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {deposits.map((deposit) => (
              <li
                key={deposit.id}
                className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="flex min-w-0 items-start gap-3">
                  <Building2 className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
                  <div className="min-w-0">
                    <p className="font-semibold tabular-nums text-slate-900">
                      {formatUsd(deposit.amount)}{' '}
                      <span className="font-normal text-slate-600">by {deposit.username || 'a deleted account'}</span>
                    </p>
                    <p className="truncate text-sm text-slate-500">
                      #{deposit.id} · {deposit.email} · {new Date(deposit.createdAt).toLocaleString()}
                    </p>
                  </div>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    disabled={busy !== null}
                    onClick={() => mutation.mutate({ deposit, decision: 'confirm' })}
                    aria-label={`Confirm deposit #${deposit.id}`}
                  >
                    <Check className="h-4 w-4" aria-hidden />
                    Confirm
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={busy !== null}
                    onClick={() => {
                      if (window.confirm(`Reject the deposit of ${formatUsd(deposit.amount)}?`))
                        mutation.mutate({ deposit, decision: 'reject' })
                    }}
                    aria-label={`Reject deposit #${deposit.id}`}
                  >
                    <X className="h-4 w-4" aria-hidden />
                    Reject
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
