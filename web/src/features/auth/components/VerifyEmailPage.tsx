import { Link } from '@tanstack/react-router'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, LinkIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { ApiError } from '@/lib/api'
import { EMAIL_VERIFICATION_URL, invalidVerifyLinkMessage, verifyEmail } from '@/lib/emailVerification'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { AuthCard } from './AuthCard'

const toDashboard = (
  <Link to="/dashboard" className="font-medium text-brand-700 hover:text-brand-800 hover:underline">
    Go to your dashboard
  </Link>
)

/**
 * Where the verification mail's link lands. Verifying is a button rather
 * than automatic, so a mail scanner that opens the link verifies nothing.
 */
export function VerifyEmailPage({ token }: { token?: string }) {
  useDocumentTitle('Verify email')
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: () => verifyEmail(token ?? ''),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [EMAIL_VERIFICATION_URL] }),
  })

  if (mutation.isSuccess) {
    return (
      <AuthCard title="Email verified" subtitle="Thank you: your address is confirmed." footer={toDashboard}>
        <div
          role="status"
          className="flex gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200"
        >
          <CheckCircle2 className="h-5 w-5 shrink-0 text-emerald-600" aria-hidden />
          <p>You can now register names and add funds to your wallet.</p>
        </div>
      </AuthCard>
    )
  }

  const refused = mutation.error instanceof ApiError && mutation.error.status < 500
  if (!token || refused) {
    return (
      <AuthCard title="Verify your email" subtitle="This link can no longer be used." footer={toDashboard}>
        <div
          role="alert"
          className="flex gap-3 rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <LinkIcon className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
          <p>{(refused && mutation.error instanceof ApiError && mutation.error.error) || invalidVerifyLinkMessage}</p>
        </div>
        <p className="mt-4 text-sm text-slate-600">
          Verification links work once and expire 48 hours after we send them. Your dashboard sends a new one.
        </p>
        <Link to="/dashboard" className={buttonStyles({ size: 'lg', className: 'mt-6 w-full' })}>
          Go to your dashboard
        </Link>
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title="Verify your email"
      subtitle="Confirm that this address belongs to your Nameport account."
      footer={toDashboard}
    >
      {mutation.isError && (
        <p role="alert" className="mb-4 text-sm text-red-600">
          An unexpected error occurred. Please try again.
        </p>
      )}
      <Button size="lg" className="w-full" disabled={mutation.isPending} onClick={() => mutation.mutate()}>
        {mutation.isPending ? 'Verifying...' : 'Verify my email address'}
      </Button>
    </AuthCard>
  )
}
