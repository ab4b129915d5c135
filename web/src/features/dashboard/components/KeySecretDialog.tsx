import { useState } from 'react'
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
import type { NewApiKey } from '../api/apiKeys'

/**
 * A key's secret, just made or rotated: the only time it is shown. The
 * dialog says so, and offers to copy it.
 */
export function KeySecretDialog({
  newKey,
  rotated,
  onClose,
}: {
  newKey: NewApiKey
  rotated: boolean
  onClose: () => void
}) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await copyText(newKey.secret)
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the key and copy it by hand.' })
      return
    }
    setCopied(true)
    toast({ title: 'API Key copied', description: 'The API key is on your clipboard.' })
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{rotated ? `New secret for ${newKey.key.name}` : `${newKey.key.name} is ready`}</DialogTitle>
          <DialogDescription>
            {rotated
              ? 'The old secret no longer works. Give your programs this one.'
              : 'Send it in the X-API-Key header of every request.'}
          </DialogDescription>
        </DialogHeader>
        <div className="mt-5 space-y-4">
          {/* On a phone the key takes the whole width, so that all of it shows. */}
          <div className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="new-api-key" className="sr-only">
              New API key
            </label>
            <Input
              id="new-api-key"
              value={newKey.secret}
              readOnly
              className="font-mono text-xs sm:text-sm"
              onFocus={(event) => event.target.select()}
            />
            <Button variant="outline" onClick={copy} aria-label={copied ? 'API key copied' : 'Copy API key'}>
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
            This is the only time this key is shown. Store it somewhere safe now: if it is lost, rotate the key to get a
            new one.
          </p>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
