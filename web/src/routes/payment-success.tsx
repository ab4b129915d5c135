import { createFileRoute } from '@tanstack/react-router'
import { PaymentSuccessPage } from '@/features/payments/components/PaymentSuccessPage'

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 200 ? value : undefined
}

export const Route = createFileRoute('/payment-success')({
  // Stripe appends these when it returns the browser here.
  validateSearch: (search: Record<string, unknown>): { payment_intent?: string; redirect_status?: string } => ({
    payment_intent: text(search.payment_intent),
    redirect_status: text(search.redirect_status),
  }),
  component: PaymentSuccessRoute,
})

function PaymentSuccessRoute() {
  const search = Route.useSearch()
  return <PaymentSuccessPage paymentIntent={search.payment_intent} redirectStatus={search.redirect_status} />
}
