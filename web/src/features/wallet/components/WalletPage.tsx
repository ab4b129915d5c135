import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { Card, Metric, Text } from '@tremor/react'
import { AlertCircle, ArrowLeft, Globe, KeyRound, LifeBuoy, Wallet as WalletIcon } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Spinner } from '@/components/ui/Spinner'
import { formatMoney } from '@/lib/format'
import { dashboardPathFor, type User } from '@/lib/session'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { transactionsQueryOptions, walletQueryOptions, walletTotals } from '../api/wallet'
import { RecentTransactions } from './RecentTransactions'

export function WalletPage({ user }: { user: User }) {
  useDocumentTitle('Wallet')
  const dashboardPath = dashboardPathFor(user)

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <Link to={dashboardPath} className={buttonStyles({ variant: 'ghost', size: 'sm', className: '-ml-3' })}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        Back to Dashboard
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Wallet</h1>
      <p className="mt-1 text-slate-600">Your prepaid balance pays for registrations and renewals.</p>

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <BalanceCard />
          <RecentTransactions />
        </div>
        <Card className="h-fit p-6">
          <h2 className="text-base font-semibold text-slate-900">Quick Actions</h2>
          <ul className="mt-4 space-y-2">
            {user.userType === 'registrar' && (
              <li>
                <Link to="/registrar-dashboard" search={{ tab: 'api' }} className={quickAction}>
                  <KeyRound className="h-4 w-4 text-brand-600" aria-hidden />
                  API Settings
                </Link>
              </li>
            )}
            <li>
              <Link to={dashboardPath} className={quickAction}>
                <Globe className="h-4 w-4 text-brand-600" aria-hidden />
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
      </div>
    </div>
  )
}

const quickAction = buttonStyles({ variant: 'outline', className: 'w-full' })

function BalanceCard() {
  const { data: wallet, isPending, isError } = useQuery(walletQueryOptions())
  const { data: transactions } = useQuery(transactionsQueryOptions())
  const totals = transactions ? walletTotals(transactions) : undefined
  return (
    <Card className="p-6">
      <div className="flex items-center gap-2">
        <WalletIcon className="h-5 w-5 text-brand-600" aria-hidden />
        <Text>Current balance</Text>
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
