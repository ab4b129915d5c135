import { useState, type ReactNode } from 'react'
import { Link } from '@tanstack/react-router'
import { Globe, Settings, Wallet } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import type { User } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { EmailVerificationBanner } from '@/components/EmailVerificationBanner'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { AccountSettings } from './AccountSettings'
import { AdminAreaCard } from './AdminAreaCard'
import { DashboardHeading } from './DashboardHeading'
import { RegisterDomainButton } from './RegisterDomainButton'
import { TwoFactorPolicyBanner } from './TwoFactorPolicyBanner'

/** The end-user dashboard; the domain list is handed in by the route. */
export function UserDashboard({ user, domainList }: { user: User; domainList: ReactNode }) {
  useDocumentTitle('Dashboard')
  const [tab, setTab] = useState('domains')
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <EmailVerificationBanner />
      <AdminAreaCard user={user} />
      <TwoFactorPolicyBanner onSetUp={() => setTab('settings')} />
      <DashboardHeading
        title="Dashboard"
        help={<HelpTooltip topic="domain-management" userAction="viewing my domains" />}
        subtitle={<>Welcome back, {user.fullName || user.username}.</>}
        actions={
          <>
            <Link to="/wallet" className={buttonStyles({ variant: 'outline' })}>
              <Wallet className="h-4 w-4" aria-hidden />
              Wallet
            </Link>
            <RegisterDomainButton />
          </>
        }
      />
      <Tabs value={tab} onValueChange={setTab} className="mt-8">
        <TabsList className="w-fit">
          <TabsTrigger value="domains">
            <Globe className="h-4 w-4" aria-hidden />
            My Domains
          </TabsTrigger>
          <TabsTrigger value="settings">
            <Settings className="h-4 w-4" aria-hidden />
            Account Settings
          </TabsTrigger>
        </TabsList>
        <TabsContent value="domains">
          <Card>
            <CardHeader>
              <CardTitle>My Domains</CardTitle>
            </CardHeader>
            <CardContent>{domainList}</CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="settings">
          <AccountSettings user={user} />
        </TabsContent>
      </Tabs>
    </div>
  )
}
