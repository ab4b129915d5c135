import { useId, useState, type ReactNode } from 'react'
import { Check, Copy, ShieldAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { copyText } from '@/lib/clipboard'

/**
 * A secret just made (an API key, a webhook's signing secret): the only time
 * it is shown. The dialog says so, and offers to copy it.
 */
export function SecretOnceDialog({
  title,
  description,
  secret,
  noun,
  fieldLabel,
  copiedTitle,
  warning,
  onClose,
}: {
  title: ReactNode
  description: ReactNode
  secret: string
  /** What the secret is, in the middle of a sentence: "API key", "signing secret". */
  noun: { full: string; short: string }
  /** The field's label for screen readers. */
  fieldLabel: string
  /** The toast's title once copied. */
  copiedTitle: string
  /** What to do if it is lost. */
  warning: ReactNode
  onClose: () => void
}) {
  const id = useId()
  const [copied, setCopied] = useState(false)
  const capitalized = noun.full.charAt(0).toUpperCase() + noun.full.slice(1)
  const copy = async () => {
    try {
      await copyText(secret)
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy failed',
        description: `Select the ${noun.short} and copy it by hand.`,
      })
      return
    }
    setCopied(true)
    toast({ title: copiedTitle, description: `The ${noun.full} is on your clipboard.` })
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <div className="mt-5 space-y-4">
          {/* On a phone the secret takes the whole width, so that all of it shows. */}
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor={id} className="sr-only">
              {fieldLabel}
            </label>
            <Input
              id={id}
              value={secret}
              readOnly
              className="font-mono text-xs sm:text-sm"
              onFocus={(event) => event.target.select()}
            />
            <Button
              variant="outline"
              onClick={copy}
              aria-label={copied ? `${capitalized} copied` : `Copy ${noun.full}`}
            >
              {copied ? (
                <Check className="h-4 w-4 text-emerald-600" aria-hidden />
              ) : (
                <Copy className="h-4 w-4" aria-hidden />
              )}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
          <p className="flex gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
            <ShieldAlert className="h-4 w-4 shrink-0 translate-y-0.5" aria-hidden />
            {warning}
          </p>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
