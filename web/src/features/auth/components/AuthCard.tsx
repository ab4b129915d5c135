import type { ReactNode } from 'react'

/** The frame of the login and registration screens. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  wide = false,
}: {
  title: string
  subtitle: ReactNode
  children: ReactNode
  footer: ReactNode
  wide?: boolean
}) {
  return (
    <div className="relative isolate overflow-hidden bg-slate-50 px-4 py-12 sm:py-16">
      <div
        aria-hidden
        className="absolute inset-x-0 top-0 -z-10 h-64 bg-gradient-to-b from-brand-100/70 via-brand-50/40 to-transparent"
      />
      <div className={wide ? 'mx-auto w-full max-w-xl' : 'mx-auto w-full max-w-md'}>
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-1.5 text-sm text-slate-600">{subtitle}</p>
          <div className="mt-6">{children}</div>
        </div>
        <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>
      </div>
    </div>
  )
}
