import { useRef } from 'react'
import { Globe, Search, Server, Wallet } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
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
 * 'Watch How It Works' (spec: a button in the hero, see Hero): the four
 * steps from a search to a working domain, in a dialog; its last button
 * takes the visitor to the search field. Loaded when first opened, so the
 * landing page does not carry the dialog's code.
 */
export default function HowItWorksDialog({
  open,
  onOpenChange,
  onSearch,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onSearch: () => void
}) {
  // Closing gives focus back to the trigger unless the visitor chose to
  // search: then it goes to the search field instead.
  const toSearch = useRef(false)
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
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
