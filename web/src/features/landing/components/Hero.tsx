import { lazy, Suspense, useState } from 'react'
import { PlayCircle } from 'lucide-react'
import { useExtensions } from '@/lib/catalog'
import { DomainSearch, type InitialSearch } from './DomainSearch'

export function Hero({ initialSearch }: { initialSearch?: InitialSearch }) {
  const { extensions } = useExtensions()
  return (
    <section className="relative isolate overflow-hidden bg-slate-950 text-white">
      <div
        aria-hidden
        className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_50%_-10%,rgba(99,102,241,0.55),transparent),radial-gradient(40rem_20rem_at_90%_110%,rgba(56,189,248,0.18),transparent)]"
      />
      <div
        aria-hidden
        className="absolute inset-0 -z-10 opacity-[0.07] [background-image:linear-gradient(to_right,white_1px,transparent_1px),linear-gradient(to_bottom,white_1px,transparent_1px)] [background-size:48px_48px]"
      />
      <div className="mx-auto max-w-4xl px-4 pb-20 pt-16 text-center sm:px-6 sm:pb-28 sm:pt-24 lg:px-8">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-brand-100 ring-1 ring-white/15">
          {extensions.map((extension) => extension.extension).join(' · ')}
        </p>
        <h1 className="mt-6 text-4xl font-bold tracking-tight sm:text-6xl">
          Find the perfect name for your <span className="text-brand-300">next idea</span>
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-300">
          Search, register and manage domains with built-in DNS, forwarding and a prepaid wallet, for individuals and
          registrar partners alike.
        </p>
        <div className="mx-auto mt-10 max-w-3xl">
          <DomainSearch initial={initialSearch} />
        </div>
        <div className="mt-8 flex flex-col items-center justify-center gap-4 sm:flex-row">
          <p className="text-sm text-slate-300">Get started with just $8/year for regular domains.</p>
          <HowItWorks />
        </div>
      </div>
    </section>
  )
}

const loadHowItWorks = () => import('./HowItWorksDialog')
const HowItWorksDialog = lazy(loadHowItWorks)

/** The hero's 'Watch How It Works' button and its dialog, loaded on the way to the first click. */
function HowItWorks() {
  const [open, setOpen] = useState(false)
  const [wanted, setWanted] = useState(false)
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadHowItWorks()}
        onFocus={() => void loadHowItWorks()}
        onClick={() => {
          setWanted(true)
          setOpen(true)
        }}
        className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-white ring-1 ring-white/20 transition hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        <PlayCircle className="h-4 w-4" aria-hidden />
        Watch How It Works
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <HowItWorksDialog
            open={open}
            onOpenChange={setOpen}
            onSearch={() => document.getElementById('domain-search-name')?.focus()}
          />
        </Suspense>
      )}
    </>
  )
}
