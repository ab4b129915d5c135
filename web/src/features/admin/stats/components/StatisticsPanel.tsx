import { useQuery } from '@tanstack/react-query'
import { AreaChart, BarChart, BarList, Card, Metric, Text } from '@tremor/react'
import { AlertCircle, LoaderCircle } from 'lucide-react'
import { Card as Panel, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { serverMessage } from '@/lib/api'
import { adminStatsQueryOptions, type AdminStats } from '../api'

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
const count = new Intl.NumberFormat('en-US')
const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** The Statistics tab: KPI cards and charts from GET /api/admin/stats. */
export function StatisticsPanel() {
  const query = useQuery(adminStatsQueryOptions())
  if (query.isPending) {
    return (
      <div className="flex items-center justify-center gap-3 py-16 text-slate-500">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading statistics...
      </div>
    )
  }
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-col items-center gap-2 py-16 text-center">
        <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
        <p className="font-medium text-slate-900">Could not load statistics</p>
        <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
      </div>
    )
  }
  return <Statistics stats={query.data} />
}

function Kpi({ title, value, note }: { title: string; value: string; note: string }) {
  return (
    <Card className="p-4 sm:p-6" decoration="top" decorationColor="blue">
      <Text>{title}</Text>
      <Metric className="mt-1 tabular-nums">{value}</Metric>
      <Text className="mt-1 text-xs">{note}</Text>
    </Card>
  )
}

function Statistics({ stats: s }: { stats: AdminStats }) {
  const period = `Last ${s.periodDays} days`
  const daily = (s.daily ?? []).map((d) => ({
    day: shortDay.format(new Date(`${d.date}T00:00:00Z`)),
    Registrations: d.registrations,
    Revenue: d.revenue,
    Deposits: d.deposits,
  }))
  return (
    <div className="space-y-6">
      <section aria-label="Key figures" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Kpi title="Registrations" value={count.format(s.registrations)} note={`${period} · ${count.format(s.totalDomains)} domains in all`} />
        <Kpi title="Revenue" value={usd.format(s.revenue)} note={`${period} · registrations and renewals`} />
        <Kpi title="Deposits" value={usd.format(s.deposits)} note={`${period} · ${count.format(s.depositCount)} deposits`} />
        <Kpi title="Premium sales" value={count.format(s.premiumSales)} note={`All time · ${usd.format(s.premiumRevenue)}`} />
        <Kpi title="Active registrars" value={count.format(s.activeRegistrars)} note="Registrar accounts not disabled" />
        <Kpi title="Accounts" value={count.format(s.totalAccounts)} note="Users, registrars and admins" />
      </section>

      <Panel>
        <CardHeader>
          <CardTitle>Registrations per day</CardTitle>
          <CardDescription>{period}, in UTC.</CardDescription>
        </CardHeader>
        <CardContent>
          <BarChart
            className="h-56 sm:h-72"
            data={daily}
            index="day"
            categories={['Registrations']}
            colors={['blue']}
            valueFormatter={(v) => count.format(v)}
            allowDecimals={false}
            showLegend={false}
            yAxisWidth={40}
          />
        </CardContent>
      </Panel>

      <Panel>
        <CardHeader>
          <CardTitle>Revenue and deposits per day</CardTitle>
          <CardDescription>Dollars paid for domains, and dollars added to wallets.</CardDescription>
        </CardHeader>
        <CardContent>
          <AreaChart
            className="h-56 sm:h-72"
            data={daily}
            index="day"
            categories={['Revenue', 'Deposits']}
            colors={['emerald', 'amber']}
            valueFormatter={(v) => usd.format(v)}
            yAxisWidth={56}
          />
        </CardContent>
      </Panel>

      <Panel>
        <CardHeader>
          <CardTitle>Domains per extension</CardTitle>
          <CardDescription>Every registered domain; premium names among them in the note.</CardDescription>
        </CardHeader>
        <CardContent>
          {(s.domainsPerExtension ?? []).length === 0 ? (
            <p className="py-6 text-center text-sm text-slate-500">No domains registered yet.</p>
          ) : (
            <BarList
              data={(s.domainsPerExtension ?? []).map((e) => ({
                name: e.premium ? `${e.extension} (${count.format(e.premium)} premium)` : e.extension,
                value: e.domains,
              }))}
              valueFormatter={(v: number) => count.format(v)}
            />
          )}
        </CardContent>
      </Panel>
    </div>
  )
}
