import { createFileRoute } from '@tanstack/react-router'
import { AdminDashboard } from '@/features/admin/components/AdminDashboard'
import { requireAdmin } from '@/lib/session'

export const Route = createFileRoute('/admin-dashboard')({
  beforeLoad: ({ context, location }) => requireAdmin(context.queryClient, location.href),
  component: AdminDashboard,
})
