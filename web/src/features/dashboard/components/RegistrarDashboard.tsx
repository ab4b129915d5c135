import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { Card, Metric, Text } from '@tremor/react'
import { ChartColumn, Globe, KeyRound, Layers, ScrollText, Settings, Wallet, Webhook } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Card as Panel, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { formatUsd } from '@/lib/format'
import type { User } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { EmailVerificationBanner } from '@/components/EmailVerificationBanner'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { apiKeyQueryOptions } from '../api/apiKey'
import { AccountSettings } from './AccountSettings'
import { ApiAccessPanel } from './ApiAccessPanel'
import { BulkPanel } from './BulkPanel'
import { ReportsPanel } from './ReportsPanel'
import { RequestLogsPanel } from './RequestLogsPanel'
import { WebhooksPanel } from './WebhooksPanel'
import { DashboardHeading } from './DashboardHeading'
import { RegisterDomainButton } from './RegisterDomainButton'
import { TwoFactorPolicyBanner } from './TwoFactorPolicyBanner'
import { type RegistrarTab } from '../registrarTabs'

/** The wallet as the registrar dashboard shows it: '$0.00' while loading. */
export type WalletBalanceState = { status: 'loading' } | { status: 'error' } | { status: 'ok'; balance: number }

export function RegistrarDashboard({
  user,
  wallet,
  domainCount,
  domainList,
  tierStatus,
  tab,
  onTabChange,
}: {
  user: User
  wallet: WalletBalanceState
  /** How many domains the account holds; undefined while loading (or when the list cannot be read). */
  domainCount: number | undefined
  domainList: ReactNode
  /** The partnership tier and its application (see TierStatus). */
  tierStatus?: ReactNode
  tab: RegistrarTab
  onTabChange: (tab: RegistrarTab) => void
}) {
  useDocumentTitle('Registrar Dashboard')
  const balanceText =
    wallet.status === 'ok' ? formatUsd(wallet.balance) : wallet.status === 'loading' ? formatUsd(0) : '--'
  const apiKey = useQuery(apiKeyQueryOptions()).data?.apiKey ?? ''

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <EmailVerificationBanner />
      <TwoFactorPolicyBanner onSetUp={() => onTabChange('settings')} />
      <DashboardHeading
        title="Registrar Dashboard"
        help={<HelpTooltip topic="registrar-account" userAction="managing my registrar account" />}
        subtitle={<>Welcome back, {user.fullName || user.username}.</>}
        actions={
          <>
            <Link to="/wallet" className={buttonStyles({ variant: 'outline' })}>
              <Wallet className="h-4 w-4" aria-hidden />
              Wallet
              <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-inset ring-brand-200">
                {balanceText}
              </span>
            </Link>
            <RegisterDomainButton />
          </>
        }
      />

      <div className="mt-8 grid gap-4 sm:grid-cols-3">
        <Card className="border-t-4 border-t-indigo-500">
          <Text>Total Domains</Text>
          <Metric className="mt-2">{domainCount ?? '--'}</Metric>
        </Card>
        <Card className="border-t-4 border-t-emerald-500">
          <Text>Wallet Balance</Text>
          <Metric className="mt-2">{balanceText}</Metric>
        </Card>
        <Card className="border-t-4 border-t-sky-500">
          <Text>API Status</Text>
          <Metric className="mt-2">Active</Metric>
          <Text className="mt-1 font-mono">{apiKey ? `${apiKey.slice(0, 8)}...` : '--'}</Text>
        </Card>
      </div>

      {tierStatus && <div className="mt-8">{tierStatus}</div>}

      <Tabs value={tab} onValueChange={(value) => onTabChange(value as RegistrarTab)} className="mt-8">
        <TabsList className="w-fit">
          <TabsTrigger value="domains">
            <Globe className="h-4 w-4" aria-hidden />
            Domains
          </TabsTrigger>
          <TabsTrigger value="bulk">
            <Layers className="h-4 w-4" aria-hidden />
            Bulk Operations
          </TabsTrigger>
          <TabsTrigger value="reports">
            <ChartColumn className="h-4 w-4" aria-hidden />
            Reports
          </TabsTrigger>
          <TabsTrigger value="api">
            <KeyRound className="h-4 w-4" aria-hidden />
            API Access
          </TabsTrigger>
          <TabsTrigger value="logs">
            <ScrollText className="h-4 w-4" aria-hidden />
            Request Logs
          </TabsTrigger>
          <TabsTrigger value="webhooks">
            <Webhook className="h-4 w-4" aria-hidden />
            Webhooks
          </TabsTrigger>
          <TabsTrigger value="settings">
            <Settings className="h-4 w-4" aria-hidden />
            Account Settings
          </TabsTrigger>
        </TabsList>
        <TabsContent value="domains">
          <Panel>
            <CardHeader>
              <CardTitle>Domains</CardTitle>
            </CardHeader>
            <CardContent>{domainList}</CardContent>
          </Panel>
        </TabsContent>
        <TabsContent value="bulk">
          <BulkPanel />
        </TabsContent>
        <TabsContent value="reports">
          <ReportsPanel />
        </TabsContent>
        <TabsContent value="api">
          <ApiAccessPanel apiKey={apiKey} />
        </TabsContent>
        <TabsContent value="logs">
          <RequestLogsPanel />
        </TabsContent>
        <TabsContent value="webhooks">
          <WebhooksPanel />
        </TabsContent>
        <TabsContent value="settings">
          <AccountSettings user={user} />
        </TabsContent>
      </Tabs>
    </div>
  )
}
