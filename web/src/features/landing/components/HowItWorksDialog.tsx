import { useRef } from 'react'
import { Globe, PlayCircle, Search, Server, Wallet } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'

const steps = [
  {
    icon: Search,
    title: 'Search a name',
    text: 'Type a name and pick an extension: you see at once whether it is free, and its yearly price.',
  },
  {
    icon: Wallet,
    title: 'Register it from your wallet',
    text: 'Create a free account, top up your prepaid wallet, and register in one click. Renewals come from the wallet too, automatically if you like.',
  },
  {
    icon: Globe,
    title: 'Point it anywhere',
    text: 'Manage DNS records, forward email to your inbox, and redirect the domain to any website, all from the domain page.',
  },
  {
    icon: Server,
    title: 'Registrars automate it',
    text: 'Registrar partners get wholesale prices, API keys, bulk operations, reports and webhooks, and the nameportctl CLI.',
  },
] as const

/**
 * 'Watch How It Works' (spec: a button in the hero): the four steps from a
 * search to a working domain, in a dialog; its last button takes the
 * visitor to the search field.
 */
export function HowItWorksDialog({ onSearch }: { onSearch: () => void }) {
  // Closing gives focus back to the trigger unless the visitor chose to
  // search: then it goes to the search field instead.
  const toSearch = useRef(false)
  return (
    <Dialog>
      <DialogTrigger className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-white ring-1 ring-white/20 transition hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white">
        <PlayCircle className="h-4 w-4" aria-hidden />
        Watch How It Works
      </DialogTrigger>
      <DialogContent
        wide
        onCloseAutoFocus={(event) => {
          if (!toSearch.current) return
          toSearch.current = false
          event.preventDefault()
          onSearch()
        }}
      >
        <DialogHeader>
          <DialogTitle>How it works</DialogTitle>
          <DialogDescription>From a search to a working domain in a few minutes.</DialogDescription>
        </DialogHeader>
        <ol className="mt-5 space-y-4">
          {steps.map((step, i) => (
            <li key={step.title} className="flex gap-4">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700 ring-1 ring-brand-200">
                <step.icon className="h-5 w-5" aria-hidden />
              </span>
              <div className="min-w-0">
                <h3 className="font-semibold text-slate-900">
                  <span className="text-brand-600">{i + 1}.</span> {step.title}
                </h3>
                <p className="mt-0.5 text-sm text-slate-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <DialogFooter>
          <a href="/docs" className={buttonStyles({ variant: 'outline' })}>
            API documentation
          </a>
          <DialogClose asChild>
            <Button onClick={() => (toSearch.current = true)}>Search a domain</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
