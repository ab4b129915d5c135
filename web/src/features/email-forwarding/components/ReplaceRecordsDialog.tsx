import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'

/**
 * Asks before turning forwarding on replaces another mail service's records
 * (the server's list): they go, and that service stops receiving the domain's mail.
 */
export function ReplaceRecordsDialog({
  open,
  apex,
  records,
  pending,
  onCancel,
  onConfirm,
}: {
  open: boolean
  apex: string
  records: string[]
  pending: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <DialogContent hideClose={pending}>
        <DialogHeader>
          <DialogTitle>Replace mail records?</DialogTitle>
          <DialogDescription>
            Turning on email forwarding replaces these mail records of {apex}. Mail will no longer reach the service
            they name.
          </DialogDescription>
        </DialogHeader>
        <ul
          aria-label="Records to replace"
          className="mt-4 space-y-1 rounded-lg bg-amber-50 p-3 font-mono text-xs text-amber-900 ring-1 ring-inset ring-amber-200"
        >
          {records.map((record) => (
            <li key={record} className="break-all">
              {record}
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button disabled={pending} onClick={onConfirm}>
            {pending ? 'Saving...' : 'Replace and turn on'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
