import type { ReactNode } from 'react'

export function DashboardHeading({
  title,
  subtitle,
  actions,
  help,
}: {
  title: string
  subtitle: ReactNode
  actions: ReactNode
  /** The help icon shown beside the title. */
  help?: ReactNode
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <div className="flex items-center gap-2">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
          {help}
        </div>
        <p className="mt-1 text-slate-600">{subtitle}</p>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  )
}

export function DashboardLoading() {
  return <p className="mx-auto max-w-7xl px-4 py-24 text-center text-slate-600">Loading your dashboard...</p>
}
