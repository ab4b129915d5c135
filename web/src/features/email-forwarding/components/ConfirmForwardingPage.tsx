import { useEffect, useRef } from 'react'
import { Link } from '@tanstack/react-router'
import { useMutation } from '@tanstack/react-query'
import { CheckCircle2, LinkIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { confirmDestination } from '../api/forwarding'

/**
 * Where the link mailed to a forwarding address lands; its reader may have
 * no account. The mail asks them to confirm by opening the link, so the
 * token is sent as the page opens, once; the server says whether it worked.
 */
export function ConfirmForwardingPage({ token }: { token?: string }) {
  useDocumentTitle('Confirm forwarding')
  const mutation = useMutation({ mutationFn: () => confirmDestination(token ?? '') })
  // Once per page: React runs effects twice in development, and a used link would then read as invalid.
  const sent = useRef(false)
  const { mutate } = mutation
  useEffect(() => {
    if (sent.current) return
    sent.current = true
    mutate()
  }, [mutate])

  let content
  if (mutation.isSuccess) {
    content = (
      <div
        role="status"
        className="flex gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200"
      >
        <CheckCircle2 className="h-5 w-5 shrink-0 text-emerald-600" aria-hidden />
        <div className="min-w-0">
          <p className="break-words font-medium">Forwarding to {mutation.data} is confirmed</p>
          <p className="mt-1">This address receives the mail forwarded to it from now on.</p>
        </div>
      </div>
    )
  } else if (mutation.isError) {
    // A 4xx is the server's word on the link; anything else may pass, so it can be tried again.
    const refusal = mutation.error instanceof ApiError && mutation.error.status < 500 ? mutation.error.error : undefined
    content = refusal ? (
      <div role="alert" className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
        <LinkIcon className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
        <p>{refusal}</p>
      </div>
    ) : (
      <div className="space-y-4">
        <p role="alert" className="text-sm text-red-600">
          An unexpected error occurred. Please try again.
        </p>
        <Button className="w-full" onClick={() => mutate()}>
          Try again
        </Button>
      </div>
    )
  } else {
    content = (
      <div className="flex items-center gap-3 text-sm text-slate-600">
        <Spinner />
        <span>Confirming the address...</span>
      </div>
    )
  }

  return (
    <div className="relative isolate overflow-hidden bg-slate-50 px-4 py-12 sm:py-16">
      <div
        aria-hidden
        className="absolute inset-x-0 top-0 -z-10 h-64 bg-gradient-to-b from-brand-100/70 via-brand-50/40 to-transparent"
      />
      <div className="mx-auto w-full max-w-md">
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Confirm email forwarding</h1>
          <p className="mt-1.5 text-sm text-slate-600">
            Someone asked Nameport to forward mail for their domain to this address.
          </p>
          <div className="mt-6">{content}</div>
          <Link to="/" className={buttonStyles({ variant: 'outline', className: 'mt-6 w-full' })}>
            Go to the home page
          </Link>
        </div>
      </div>
    </div>
  )
}
