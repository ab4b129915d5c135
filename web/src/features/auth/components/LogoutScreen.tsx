import { useEffect, useRef } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useQueryClient } from '@tanstack/react-query'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { currentUserQueryOptions } from '@/lib/session'
import { logout } from '../api/auth'

export function LogoutScreen() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  // The request runs once even when React mounts effects twice in development.
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    logout()
      .then(
        () => {
          queryClient.clear()
          queryClient.setQueryData(currentUserQueryOptions().queryKey, null)
          toast({ title: 'Logged out', description: 'You have been logged out.' })
        },
        () => {
          // The session may still be alive: drop the cache and let the next
          // screen ask the server who is logged in.
          queryClient.clear()
          toast({
            variant: 'destructive',
            title: 'Logout failed',
            description: 'There was an error logging out. Please try again.',
          })
        },
      )
      .finally(() => navigate({ to: '/', replace: true }))
  }, [navigate, queryClient])

  return (
    <div className="flex items-center justify-center gap-3 py-32 text-slate-600">
      <Spinner />
      <span>Logging out...</span>
    </div>
  )
}
