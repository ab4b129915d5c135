import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { LogOut, Monitor } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import {
  accountSecurityKeys,
  endOtherSessions,
  endSession,
  sessionsQueryOptions,
  type AccountSession,
} from '../api/accountSecurity'

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

function formatWhen(value: string) {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : when.format(date)
}

/**
 * Account Settings' active sessions: where the account is signed in, with
 * "Sign out" for each other session and "Sign out everywhere else".
 */
export function SessionsSettings() {
  const queryClient = useQueryClient()
  const sessions = useQuery(sessionsQueryOptions())
  const [confirmOthers, setConfirmOthers] = useState(false)
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountSecurityKeys.sessions })
  const failed = (error: unknown) =>
    toast({
      variant: 'destructive',
      title: 'Sign-out failed',
      description: serverMessage(error) || 'An unexpected error occurred',
    })

  const endOne = useMutation({
    mutationFn: endSession,
    onSuccess: () => {
      toast({ title: 'Session signed out' })
      void refresh()
    },
    onError: (error) => {
      failed(error)
      void refresh()
    },
  })
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: (n) => {
      setConfirmOthers(false)
      toast({
        title: 'Signed out everywhere else',
        description: `${n} ${n === 1 ? 'session' : 'sessions'} signed out.`,
      })
      void refresh()
    },
    onError: (error) => {
      setConfirmOthers(false)
      failed(error)
    },
  })

  // This session first, then the others as the server orders them (most recently seen first).
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current))
  const others = list.filter((s) => !s.current).length
  return (
    <section aria-labelledby="sessions-heading" className="space-y-3 border-t border-slate-200 pt-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="sessions-heading" className="text-base font-semibold text-slate-900">
          Active sessions
        </h3>
        <Button variant="outline" size="sm" disabled={others === 0} onClick={() => setConfirmOthers(true)}>
          <LogOut className="h-4 w-4" aria-hidden />
          Sign out everywhere else
        </Button>
      </div>
      {sessions.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : sessions.isError ? (
        <p className="text-sm text-red-600">Could not load your sessions.</p>
      ) : (
        <ul aria-label="Active sessions" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {list.map((s) => (
            <SessionRow
              key={s.id}
              session={s}
              pending={endOne.isPending && endOne.variables === s.id}
              onEnd={() => endOne.mutate(s.id)}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirmOthers}
        title="Sign out everywhere else?"
        description="Every other browser and device signed in to your account will be logged out. This session stays signed in."
        action="Sign out"
        pending={endOthers.isPending}
        onCancel={() => setConfirmOthers(false)}
        onConfirm={() => endOthers.mutate()}
      />
    </section>
  )
}

function SessionRow({ session, pending, onEnd }: { session: AccountSession; pending: boolean; onEnd: () => void }) {
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between" aria-label={session.browser}>
      <div className="flex min-w-0 gap-3">
        <Monitor className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
        <div className="min-w-0 space-y-0.5">
          <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            <span className="break-words">{session.browser}</span>
            {session.current && <Badge tone="brand">This session</Badge>}
          </p>
          <p className="break-all text-sm text-slate-600">{session.ipAddress || 'Unknown address'}</p>
          <p className="text-xs text-slate-500">
            Signed in {formatWhen(session.createdAt)} · Last active {formatWhen(session.lastSeenAt)}
          </p>
        </div>
      </div>
      {!session.current && (
        <Button variant="outline" size="sm" className="self-start sm:self-center" onClick={onEnd} disabled={pending}>
          {pending ? 'Signing out…' : 'Sign out'}
        </Button>
      )}
    </li>
  )
}
