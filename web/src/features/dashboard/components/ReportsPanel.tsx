import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { BarChart, Card as Tile, DonutChart, Metric, Text } from '@tremor/react'
import { AlertCircle, Download, LoaderCircle } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { DataTable, type Column } from '@/components/ui/DataTable'
import { serverMessage } from '@/lib/api'
import { cx } from '@/lib/classNames'
import { formatUsd, formatUtcDate } from '@/lib/format'
import {
  reportCsvUrl,
  reportsQueryOptions,
  type Report,
  type ReportName,
  type RenewalWindow,
  type UpcomingRenewal,
} from '../api/reports'
import { AllowanceUsage } from './AllowanceUsage'

const count = new Intl.NumberFormat('en-US')
const wholeUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
// Months are calendar months in UTC: read them in UTC, or the first of a
// month shows as the month before west of Greenwich.
const monthLabel = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' })

/** The donut's colours, in order (tailwind.config.ts safelists their classes), and its legend's dots. */
const extensionColors = ['blue', 'emerald', 'amber', 'violet', 'cyan']
const dotClasses = ['bg-blue-500', 'bg-emerald-500', 'bg-amber-500', 'bg-violet-500', 'bg-cyan-500']

/**
 * The registrar dashboard's Reports tab: registrations, renewals and spend
 * per month, domains by extension, upcoming renewals with the balance they
 * need, and this month's allowance. Every figure comes from the server
 * (GET /api/registrar/reports); each report downloads as CSV.
 */
export function ReportsPanel() {
  const query = useQuery(reportsQueryOptions())
  if (query.isPending) {
    return (
      <div className="flex items-center justify-center gap-3 py-16 text-slate-500">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading reports...
      </div>
    )
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 py-16 text-center">
        <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
        <p className="font-medium text-slate-900">Could not load reports</p>
        <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
      </div>
    )
  }
  return <Reports report={query.data} />
}

/** "Export CSV", a download link; its accessible name says which report. */
function ExportLink({ name, title }: { name: ReportName; title: string }) {
  return (
    <a
      href={reportCsvUrl(name)}
      download
      aria-label={`Export CSV: ${title}`}
      className={buttonStyles({ variant: 'outline', size: 'sm' })}
    >
      <Download className="h-4 w-4" aria-hidden />
      Export CSV
    </a>
  )
}

/** A report's card: its title, what it shows, its CSV, and the figures. */
function ReportCard({
  title,
  description,
  csv,
  children,
  className,
}: {
  title: string
  description: ReactNode
  csv: ReportName
  children: ReactNode
  className?: string
}) {
  return (
    <Card role="region" aria-label={title} className={cx('flex min-w-0 flex-col', className)}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <CardTitle>{title}</CardTitle>
          <ExportLink name={csv} title={title} />
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">{children}</CardContent>
    </Card>
  )
}

function Empty({ children, compact = false }: { children: ReactNode; compact?: boolean }) {
  return (
    <p
      className={cx(
        'flex items-center justify-center text-center text-sm text-slate-500',
        compact ? 'py-4' : 'h-full min-h-32',
      )}
    >
      {children}
    </p>
  )
}

function Kpi({ title, value, note }: { title: string; value: string; note: string }) {
  return (
    <Tile className="p-4 sm:p-5" decoration="top" decorationColor="blue">
      <Text>{title}</Text>
      <Metric className="mt-1 tabular-nums">{value}</Metric>
      <Text className="mt-1 text-xs">{note}</Text>
    </Tile>
  )
}

function Reports({ report: r }: { report: Report }) {
  const months = r.months ?? []
  const extensions = r.extensions ?? []
  const renewals = r.renewals ?? []
  const windows = r.renewalWindows ?? []
  const label = (month: string) => monthLabel.format(new Date(`${month}-01T00:00:00Z`))
  const activity = months.map((m) => ({ month: label(m.month), Registrations: m.registrations, Renewals: m.renewals }))
  const spend = months.map((m) => ({
    month: label(m.month),
    Registrations: m.registrationSpend,
    Renewals: m.renewalSpend,
    Other: m.otherSpend,
  }))
  const registrations = months.reduce((n, m) => n + m.registrations, 0)
  const renewed = months.reduce((n, m) => n + m.renewals, 0)
  const spent = months.reduce((n, m) => n + m.totalSpend, 0)
  const domains = extensions.reduce((n, e) => n + e.domains, 0)
  const period = months.length > 0 ? `${label(months[0].month)} to ${label(months[months.length - 1].month)}` : ''
  const due30 = windows.find((w) => w.days === 30)

  return (
    <div className="space-y-6">
      <section aria-label="Key figures" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Kpi title="Registrations" value={count.format(registrations)} note="Last 12 months" />
        <Kpi title="Renewals" value={count.format(renewed)} note="Last 12 months" />
        <Kpi title="Spent" value={formatUsd(spent)} note="Last 12 months, from the wallet" />
        <Kpi
          title="Due within 30 days"
          value={formatUsd(due30?.total ?? 0)}
          note={`${count.format(due30?.domains ?? 0)} renewals · ${count.format(domains)} domains held`}
        />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <ReportCard
          title="Registrations and renewals per month"
          description={`${period}, calendar months in UTC.`}
          csv="activity"
        >
          {registrations + renewed === 0 ? (
            <Empty>No registrations or renewals in the last 12 months yet.</Empty>
          ) : (
            <BarChart
              className="h-64"
              data={activity}
              index="month"
              categories={['Registrations', 'Renewals']}
              colors={['blue', 'emerald']}
              valueFormatter={(v) => count.format(v)}
              allowDecimals={false}
              yAxisWidth={36}
            />
          )}
        </ReportCard>

        <ReportCard
          title="Spend per month"
          description="Dollars paid from the wallet for registrations, renewals and anything else."
          csv="spend"
        >
          {spent === 0 ? (
            <Empty>Nothing paid from the wallet in the last 12 months yet.</Empty>
          ) : (
            <BarChart
              className="h-64"
              data={spend}
              index="month"
              categories={['Registrations', 'Renewals', 'Other']}
              colors={['blue', 'emerald', 'amber']}
              stack
              valueFormatter={(v) => formatUsd(v)}
              yAxisWidth={56}
            />
          )}
        </ReportCard>
      </div>

      <UpcomingRenewals renewals={renewals} windows={windows} balance={r.balance} />

      <div className="grid gap-6 lg:grid-cols-2">
        <ReportCard
          title="Domains by extension"
          description="Every domain you hold, and how many have expired."
          csv="extensions"
        >
          {extensions.length === 0 ? (
            <Empty>No domains yet: the domains you register show here.</Empty>
          ) : (
            <div className="flex flex-col items-center gap-6 sm:flex-row">
              <DonutChart
                className="h-44 w-44 shrink-0"
                data={extensions}
                index="extension"
                category="domains"
                colors={extensionColors}
                valueFormatter={(v) => count.format(v)}
                label={`${count.format(domains)} domains`}
                showAnimation={false}
              />
              <ul className="w-full min-w-0 divide-y divide-slate-100 text-sm">
                {extensions.map((e, i) => (
                  <li key={e.extension} className="flex items-baseline justify-between gap-3 py-2">
                    <span className="flex items-center gap-2 font-medium text-slate-900">
                      <span className={cx('h-2.5 w-2.5 rounded-full', dotClasses[i % dotClasses.length])} aria-hidden />
                      {e.extension}
                    </span>
                    <span className="tabular-nums text-slate-600">
                      {count.format(e.domains)} {e.domains === 1 ? 'domain' : 'domains'}
                      {e.expired > 0 && <span className="text-amber-700"> · {count.format(e.expired)} expired</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </ReportCard>

        <ReportCard
          title="Registrations this month"
          description="New registrations against your tier's monthly allowance; renewals do not count."
          csv="allowance"
        >
          <AllowanceUsage />
        </ReportCard>
      </div>
    </div>
  )
}

const statusBadge: Record<UpcomingRenewal['status'], ReactNode> = {
  // Badge has no red tone: an expired domain is the one urgent row.
  expired: (
    <span className="inline-flex items-center rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-700 ring-1 ring-inset ring-red-200">
      Expired · in grace
    </span>
  ),
  expiring_soon: <Badge tone="premium">Expiring soon</Badge>,
  active: <Badge tone="success">Active</Badge>,
}

function windowLabel(days: number): string {
  return `Within ${days} days`
}

/** The renewals due within 30, 60 and 90 days, what they cost and the balance they need, then the domains. */
function UpcomingRenewals({
  renewals,
  windows,
  balance,
}: {
  renewals: UpcomingRenewal[]
  windows: RenewalWindow[]
  balance: number
}) {
  const columns: Column<UpcomingRenewal>[] = [
    { header: 'Domain', cell: (n) => <span className="font-medium text-slate-900">{n.domain}</span>, rowHeader: true },
    { header: 'Expires', cell: (n) => formatUtcDate(n.expiresAt) },
    { header: 'Status', cell: (n) => statusBadge[n.status] },
    { header: 'Due within', cell: (n) => `${n.windowDays} days` },
    { header: 'Renewal price', cell: (n) => formatUsd(n.price), align: 'right', className: 'tabular-nums' },
    { header: 'Auto-renew', cell: (n) => (n.autoRenew ? 'On' : 'Off') },
  ]
  return (
    <ReportCard
      title="Upcoming renewals"
      description={
        <>
          Windows are cumulative; an expired domain still in its grace period is due now. Wallet balance{' '}
          <span className="font-medium text-slate-700">{formatUsd(balance)}</span>.
        </>
      }
      csv="renewals"
    >
      <ul aria-label="Renewal windows" className="grid gap-3 sm:grid-cols-3">
        {windows.map((w) => (
          <li key={w.days} className="rounded-xl border border-slate-200 p-4">
            <p className="text-sm font-medium text-slate-600">{windowLabel(w.days)}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{formatUsd(w.total)}</p>
            <p className="text-sm text-slate-600">
              {count.format(w.domains)} {w.domains === 1 ? 'domain' : 'domains'} · {wholeUsd.format(w.autoRenewTotal)}{' '}
              on auto-renew
            </p>
            {w.balanceNeeded > 0 ? (
              <p className="mt-2 text-sm font-medium text-amber-700">Add {formatUsd(w.balanceNeeded)} to cover them</p>
            ) : (
              <p className="mt-2 text-sm text-emerald-700">
                {w.domains > 0 ? 'Your balance covers them' : 'Nothing due'}
              </p>
            )}
          </li>
        ))}
      </ul>
      <div className="mt-4">
        <DataTable
          label="Domains due for renewal"
          rows={renewals}
          rowKey={(n) => n.domain}
          columns={columns}
          edge="box"
          empty={<Empty compact>Nothing due for renewal in the next 90 days.</Empty>}
          stacked={(n) => (
            <div className="space-y-1 text-sm">
              <div className="flex items-center justify-between gap-2">
                <span className="font-medium text-slate-900">{n.domain}</span>
                {statusBadge[n.status]}
              </div>
              <p className="text-slate-600">
                Expires {formatUtcDate(n.expiresAt)} · {formatUsd(n.price)} · auto-renew {n.autoRenew ? 'on' : 'off'}
              </p>
            </div>
          )}
        />
      </div>
    </ReportCard>
  )
}
