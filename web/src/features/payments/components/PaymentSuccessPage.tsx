import { Link } from '@tanstack/react-router'
import { CheckCircle2, Clock, XCircle } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Card, CardContent } from '@/components/ui/card'
import { cx } from '@/lib/classNames'
import { useDocumentTitle } from '@/lib/useDocumentTitle'

/**
 * /payment-success: where Stripe returns the browser after a card payment
 * that needed a redirect (it adds payment_intent and redirect_status).
 */
export function PaymentSuccessPage({
  paymentIntent,
  redirectStatus,
}: {
  paymentIntent?: string
  redirectStatus?: string
}) {
  useDocumentTitle('Payment')
  const failed = redirectStatus === 'failed'
  const pending = redirectStatus === 'processing' || redirectStatus === 'pending'
  const Icon = failed ? XCircle : pending ? Clock : CheckCircle2
  const title = failed ? 'Payment Failed' : pending ? 'Payment processing' : 'Payment Successful'
  const text = failed
    ? 'An error occurred during payment'
    : pending
      ? 'Your payment is being processed. We will update your account once it completes.'
      : 'Thank you for your payment!'
  return (
    <div className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <Card>
        <CardContent className="flex flex-col items-center px-6 py-14 pt-14 text-center" role="status">
          <span
            className={cx(
              'flex h-14 w-14 items-center justify-center rounded-full',
              failed ? 'bg-red-50 text-red-500' : pending ? 'bg-amber-50 text-amber-500' : 'bg-emerald-50 text-emerald-500',
            )}
          >
            <Icon className="h-8 w-8" aria-hidden />
          </span>
          <h1 className="mt-4 text-xl font-semibold text-slate-900">{title}</h1>
          <p className="mt-1 max-w-md text-slate-600">{text}</p>
          {paymentIntent && <p className="mt-3 break-all font-mono text-xs text-slate-500">{paymentIntent}</p>}
          <div className="mt-8 flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
            <Link to="/payment-demo" className={buttonStyles({ variant: failed ? 'primary' : 'outline' })}>
              {failed ? 'Try again' : 'Back to the payment demo'}
            </Link>
            <Link to="/wallet" className={buttonStyles({ variant: failed ? 'outline' : 'primary' })}>
              Go to wallet
            </Link>
          </div>
        </CardContent>
      </Card>
    </div>
  )
}
