import { useRef } from 'react'
import { Link } from '@tanstack/react-router'
import { useMutation } from '@tanstack/react-query'
import { CheckCircle2, LinkIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { ApiError } from '@/lib/api'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { confirmDestination, incompleteConfirmLinkMessage } from '../api/forwarding'

/**
 * Where the link mailed to a forwarding address lands; its reader may have
 * no account. Confirming is a button rather than automatic: mail scanners
 * open links (some run the page's JavaScript), and opening alone must not
 * confirm an address nobody confirmed. The server says whether it worked.
 */
export function ConfirmForwardingPage({ token }: { token?: string }) {
  useDocumentTitle('Confirm forwarding')
  // One POST per confirmation: a second click before the button shows as
  // disabled is dropped. After a failure the token may be sent again (a 4xx
  // takes the button away; a 5xx may pass).
  const sending = useRef(false)
  const mutation = useMutation({
    mutationFn: () => confirmDestination(token ?? ''),
    onError: () => {
      sending.current = false
    },
  })
  const confirm = () => {
    if (sending.current) return
    sending.current = true
    mutation.mutate()
  }

  // A 4xx is the server's word on the link; anything else may pass, so it can be tried again.
  const refusal = mutation.error instanceof ApiError && mutation.error.status < 500 ? mutation.error.error : undefined

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
  } else if (!token || refusal) {
    content = (
      <div role="alert" className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
        <LinkIcon className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
        <p>{refusal || incompleteConfirmLinkMessage}</p>
      </div>
    )
  } else {
    content = (
      <div className="space-y-4">
        <p className="text-sm text-slate-600">
          Nothing is forwarded to this address until you confirm. If you did not expect this, close this page.
        </p>
        {mutation.isError && (
          <p role="alert" className="text-sm text-red-600">
            An unexpected error occurred. Please try again.
          </p>
        )}
        <Button size="lg" className="w-full" disabled={mutation.isPending} onClick={confirm}>
          {mutation.isPending ? 'Confirming...' : 'Confirm forwarding'}
        </Button>
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
