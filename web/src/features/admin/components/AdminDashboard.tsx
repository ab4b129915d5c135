import { lazy, Suspense } from 'react'
import {
  BarChart3,
  Cog,
  CreditCard,
  Crown,
  FileText,
  Globe2,
  Inbox,
  LayoutTemplate,
  ListChecks,
  Users,
} from 'lucide-react'
import { Spinner } from '@/components/ui/Spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { JobsPanel } from './JobsPanel'
import { ExtensionsPanel } from '../extensions/components/ExtensionsPanel'
import { AdvancedConfigPanel } from '../extensions/components/AdvancedConfigPanel'
import { PendingDepositsPanel } from '../deposits/components/PendingDepositsPanel'
import { PaymentGatewaysPanel } from '../settings/components/PaymentGatewaysPanel'
import { SiteSettingsPanel } from '../settings/components/SiteSettingsPanel'
import { PremiumDomainsPanel } from '../premium/components/PremiumDomainsPanel'
import { UsersPanel } from '../users/components/UsersPanel'

// The statistics carry Tremor's charts, the largest part of the admin code:
// they load when their tab is first opened.
const StatisticsPanel = lazy(() =>
  import('../stats/components/StatisticsPanel').then((m) => ({ default: m.StatisticsPanel })),
)
// Pages carry the Markdown renderer of their preview.
const PagesPanel = lazy(() => import('../pages/components/PagesPanel').then((m) => ({ default: m.PagesPanel })))

const InboxPanel = lazy(() => import('../contact/components/InboxPanel').then((m) => ({ default: m.InboxPanel })))

const tabs = [
  { value: 'premium-domains', label: 'Premium Domains', icon: Crown },
  { value: 'extensions', label: 'Domain Extensions', icon: Globe2 },
  { value: 'advanced', label: 'Advanced Config', icon: Cog },
  { value: 'site-settings', label: 'Site Settings', icon: LayoutTemplate },
  { value: 'pages', label: 'Pages', icon: FileText },
  { value: 'payment-gateways', label: 'Payment Gateways', icon: CreditCard },
  { value: 'users', label: 'Users', icon: Users },
  { value: 'inbox', label: 'Inbox', icon: Inbox },
  { value: 'statistics', label: 'Statistics', icon: BarChart3 },
  { value: 'jobs', label: 'Jobs', icon: ListChecks },
] as const

export function AdminDashboard() {
  useDocumentTitle('Admin Dashboard')
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Admin Dashboard</h1>
      <p className="mt-1 text-slate-600">Platform configuration.</p>
      <Tabs defaultValue="premium-domains" className="mt-8">
        <TabsList>
          {tabs.map(({ value, label, icon: Icon }) => (
            <TabsTrigger key={value} value={value}>
              <Icon className="h-4 w-4" aria-hidden />
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map((tab) => (
          <TabsContent key={tab.value} value={tab.value}>
            {tab.value === 'premium-domains' ? (
              <PremiumDomainsPanel />
            ) : tab.value === 'site-settings' ? (
              <SiteSettingsPanel />
            ) : tab.value === 'payment-gateways' ? (
              <div className="space-y-6">
                <PaymentGatewaysPanel />
                <PendingDepositsPanel />
              </div>
            ) : tab.value === 'extensions' ? (
              <ExtensionsPanel />
            ) : tab.value === 'advanced' ? (
              <AdvancedConfigPanel />
            ) : tab.value === 'users' ? (
              <UsersPanel />
            ) : tab.value === 'inbox' ? (
              <Suspense fallback={<Spinner className="h-4 w-4" label="Loading inbox" />}>
                <InboxPanel />
              </Suspense>
            ) : tab.value === 'jobs' ? (
              <JobsPanel />
            ) : tab.value === 'pages' ? (
              <Suspense fallback={<Spinner className="h-4 w-4" label="Loading pages" />}>
                <PagesPanel />
              </Suspense>
            ) : (
              <Suspense
                fallback={
                  <p className="flex items-center gap-2 py-10 text-slate-600" role="status">
                    <Spinner className="h-4 w-4" label="Loading statistics" />
                    Loading statistics...
                  </p>
                }
              >
                <StatisticsPanel />
              </Suspense>
            )}
          </TabsContent>
        ))}
      </Tabs>
    </div>
  )
}
