import { useMutation, useQuery } from '@tanstack/react-query'
import { MailWarning } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { emailVerificationQueryOptions, resendVerificationEmail } from '@/lib/emailVerification'

/**
 * Tells an account whose email address is not verified that it cannot
 * register names or add funds until it opens the mailed link, and sends the
 * link again. Shows nothing once the address is verified.
 */
export function EmailVerificationBanner() {
  const { data } = useQuery(emailVerificationQueryOptions())
  const resend = useMutation({
    mutationFn: resendVerificationEmail,
    onSuccess: () =>
      toast({ title: 'Verification email sent', description: `Open the link we sent to ${data?.email}.` }),
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Email not sent',
        description: serverMessage(error) ?? 'An unexpected error occurred',
      }),
  })
  if (!data || data.verified) return null
  return (
    <div
      role="region"
      aria-label="Email verification"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 sm:flex-row sm:items-center"
    >
      <MailWarning className="h-5 w-5 shrink-0 text-amber-600" aria-hidden />
      <p className="flex-1">
        <span className="font-semibold">Verify your email address</span> to register names and add funds. We sent a link
        to <span className="font-medium">{data.email}</span>.
      </p>
      <Button size="sm" variant="outline" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? 'Sending...' : 'Resend email'}
      </Button>
    </div>
  )
}
