import { useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Card, Metric, Text } from '@tremor/react'
import {
  AlertCircle,
  ArrowLeft,
  Globe,
  KeyRound,
  LayoutDashboard,
  LifeBuoy,
  ListOrdered,
  Plus,
  PlusCircle,
  Wallet as WalletIcon,
} from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { formatMoney } from '@/lib/format'
import { dashboardPathFor, type User } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { noFilters, transactionsQueryOptions, walletQueryOptions, walletTotals } from '../api/wallet'
import { DepositPanel } from './DepositPanel'
import { RecentTransactions } from './RecentTransactions'
import { TransactionsPanel } from './TransactionsPanel'

export type WalletTab = 'overview' | 'deposit' | 'transactions'

export function WalletPage({
  user,
  tab,
  onTabChange,
  depositAmount,
  returnTo,
}: {
  user: User
  tab: WalletTab
  onTabChange: (tab: WalletTab) => void
  /** The deposit form's starting amount (?amount=). */
  depositAmount?: number
  /** Where 'Continue registration' leads after a deposit (?return=). */
  returnTo?: string
}) {
  useDocumentTitle('Wallet')
  const dashboardPath = dashboardPathFor(user)
  // Kept here so the filters survive a look at another tab.
  const [filters, setFilters] = useState(noFilters)
  // A finished deposit's screen is left by 'Back to Overview'; a new visit to the tab starts a new form.
  const [depositRun, setDepositRun] = useState(0)
  const openDeposit = () => {
    setDepositRun((run) => run + 1)
    onTabChange('deposit')
  }

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <Link to={dashboardPath} className={buttonStyles({ variant: 'ghost', size: 'sm', className: '-ml-3' })}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to Dashboard
      </Link>
      <div className="mt-4 flex items-center gap-2">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Wallet</h1>
        <HelpTooltip topic="wallet" userAction="managing my wallet" />
      </div>
      <p className="mt-1 text-slate-600">Your prepaid balance pays for registrations and renewals.</p>

      <Tabs
        value={tab}
        onValueChange={(value) => {
          if (value === 'deposit') setDepositRun((run) => run + 1)
          onTabChange(value as WalletTab)
        }}
        className="mt-8"
      >
        <TabsList className="w-fit">
          <TabsTrigger value="overview">
            <WalletIcon className="hidden h-4 w-4 sm:block" aria-hidden />
            Overview
          </TabsTrigger>
          <TabsTrigger value="deposit">
            <PlusCircle className="hidden h-4 w-4 sm:block" aria-hidden />
            Deposit Funds
          </TabsTrigger>
          <TabsTrigger value="transactions">
            <ListOrdered className="hidden h-4 w-4 sm:block" aria-hidden />
            Transactions
          </TabsTrigger>
        </TabsList>

        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          <div className="min-w-0 lg:col-span-2">
            <TabsContent value="overview" className="!mt-0 space-y-6">
              <BalanceCard onDeposit={openDeposit} />
              <RecentTransactions onViewAll={() => onTabChange('transactions')} />
            </TabsContent>
            <TabsContent value="deposit" className="!mt-0">
              <DepositPanel
                key={`${depositRun}-${depositAmount ?? ''}`}
                initialAmount={depositAmount}
                returnTo={returnTo}
                onDone={() => onTabChange('overview')}
              />
            </TabsContent>
            <TabsContent value="transactions" className="!mt-0">
              <TransactionsPanel filters={filters} onFiltersChange={setFilters} />
            </TabsContent>
          </div>
          <QuickActions
            isRegistrar={user.userType === 'registrar'}
            dashboardPath={dashboardPath}
            onDeposit={openDeposit}
          />
        </div>
      </Tabs>
    </div>
  )
}

const quickAction = buttonStyles({ variant: 'outline', className: 'w-full justify-start' })

function QuickActions({
  isRegistrar,
  dashboardPath,
  onDeposit,
}: {
  isRegistrar: boolean
  dashboardPath: '/dashboard' | '/registrar-dashboard'
  onDeposit: () => void
}) {
  return (
    <Card className="h-fit p-6" role="region" aria-labelledby="quick-actions-title">
      <h2 id="quick-actions-title" className="text-base font-semibold text-slate-900">
        Quick Actions
      </h2>
      <ul className="mt-4 space-y-2">
        <li>
          <Button variant="outline" className="w-full justify-start" onClick={onDeposit}>
            <Plus className="h-4 w-4 text-brand-600" aria-hidden />
            Deposit Funds
          </Button>
        </li>
        {isRegistrar && (
          <li>
            <Link to="/registrar-dashboard" search={{ tab: 'api' }} className={quickAction}>
              <KeyRound className="h-4 w-4 text-brand-600" aria-hidden />
              API Settings
            </Link>
          </li>
        )}
        <li>
          <Link to={dashboardPath} className={quickAction}>
            {isRegistrar ? (
              <LayoutDashboard className="h-4 w-4 text-brand-600" aria-hidden />
            ) : (
              <Globe className="h-4 w-4 text-brand-600" aria-hidden />
            )}
            Manage Domains
          </Link>
        </li>
        <li>
          <Link to="/" hash="contact" className={quickAction}>
            <LifeBuoy className="h-4 w-4 text-brand-600" aria-hidden />
            Contact Support
          </Link>
        </li>
      </ul>
    </Card>
  )
}

function BalanceCard({ onDeposit }: { onDeposit: () => void }) {
  const { data: wallet, isPending, isError } = useQuery(walletQueryOptions())
  const { data: transactions } = useQuery(transactionsQueryOptions())
  const totals = transactions ? walletTotals(transactions) : undefined
  return (
    <Card className="p-6" role="region" aria-labelledby="balance-title">
      <div className="flex items-center justify-between gap-4">
        <div className="flex items-center gap-2">
          <WalletIcon className="h-5 w-5 text-brand-600" aria-hidden />
          <h2 id="balance-title" className="text-sm text-slate-500">
            Current balance
          </h2>
        </div>
        <Button size="sm" onClick={onDeposit}>
          <Plus className="h-4 w-4" aria-hidden />
          Deposit Funds
        </Button>
      </div>
      {isPending ? (
        <div className="mt-4 flex items-center gap-2 text-slate-600">
          <Spinner className="h-4 w-4" />
          <span>Loading your wallet...</span>
        </div>
      ) : isError ? (
        <div className="mt-4 flex flex-col items-start gap-3">
          <p className="flex items-center gap-2 text-slate-700">
            <AlertCircle className="h-4 w-4 text-red-500" aria-hidden />
            Failed to load your wallet. Please try again.
          </p>
          <Button variant="outline" size="sm" onClick={() => window.location.reload()}>
            Retry
          </Button>
        </div>
      ) : (
        <div className="mt-3 flex flex-col gap-6 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <Metric>{formatMoney(wallet.balance, wallet.currency)}</Metric>
            <Text className="mt-1">{wallet.currency}</Text>
          </div>
          {totals && (
            <dl className="grid grid-cols-2 gap-6 text-sm">
              <div>
                <dt className="text-slate-500">Total deposited</dt>
                <dd className="mt-0.5 font-semibold text-slate-900">
                  {formatMoney(totals.deposited, wallet.currency)}
                </dd>
              </div>
              <div>
                <dt className="text-slate-500">Total spent</dt>
                <dd className="mt-0.5 font-semibold text-slate-900">{formatMoney(totals.spent, wallet.currency)}</dd>
              </div>
            </dl>
          )}
        </div>
      )}
    </Card>
  )
}
