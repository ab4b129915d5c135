import { createFileRoute } from '@tanstack/react-router'
import { PaymentDemoPage } from '@/features/payments/components/PaymentDemoPage'
import { paymentConfigQueryOptions } from '@/features/payments/api/payments'
import { requireUser } from '@/lib/session'

export const Route = createFileRoute('/payment-demo')({
  // Creating a payment needs an account (the payment belongs to it).
  beforeLoad: ({ context, location }) => requireUser(context.queryClient, location.href),
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(paymentConfigQueryOptions())
  },
  component: PaymentDemoPage,
})
