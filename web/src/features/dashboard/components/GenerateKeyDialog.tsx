import { useState } from 'react'
import { LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { toast } from '@/components/toast/toastStore'
import { regenerateErrorMessage, useRegenerateApiKey } from '../api/apiKey'

/** The API Access tab's 'Generate New Key' button and the confirmation it opens. */
export function GenerateKeyDialog() {
  const [open, setOpen] = useState(false)
  const regenerate = useRegenerateApiKey()
  const generating = regenerate.isPending

  const confirm = () =>
    regenerate.mutate(undefined, {
      onSuccess: () => {
        setOpen(false)
        toast({
          title: 'API key regenerated',
          description: 'Your old key no longer works. Update your integrations with the new key.',
        })
      },
      onError: (error) => {
        toast({ variant: 'destructive', title: 'Error', description: regenerateErrorMessage(error) })
      },
    })

  return (
    <Dialog open={open} onOpenChange={(next) => !generating && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          <RefreshCw className="h-4 w-4" aria-hidden />
          Generate New Key
        </Button>
      </DialogTrigger>
      <DialogContent hideClose={generating}>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-red-100">
            <TriangleAlert className="h-5 w-5 text-red-600" aria-hidden />
          </span>
          <DialogHeader>
            <DialogTitle>Generate a new API key?</DialogTitle>
            <DialogDescription>Generating a new key will invalidate your existing key.</DialogDescription>
            <p className="pt-2 text-sm text-slate-700">
              Scripts and integrations that use the old key stop working at once. Update them with the new key
              afterwards.
            </p>
          </DialogHeader>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)} disabled={generating}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirm} disabled={generating}>
            {generating ? (
              <>
                <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
                Generating...
              </>
            ) : (
              'Generate New Key'
            )}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
