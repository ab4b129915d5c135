import type { ReactNode } from 'react'
import { Button, type ButtonVariant } from './button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from './dialog'

/**
 * Asks before something that cannot be undone (a delete, a payment): Cancel,
 * or the action, destructive unless told otherwise.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  action = 'Delete',
  variant = 'destructive',
  pending,
  onCancel,
  onConfirm,
}: {
  open: boolean
  title: ReactNode
  description: ReactNode
  /** The destructive button's label. */
  action?: string
  /** The action button's look: 'primary' for an action that destroys nothing (a payment). */
  variant?: ButtonVariant
  pending: boolean
  onCancel: () => void
  onConfirm: () => void
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant={variant} disabled={pending} onClick={onConfirm}>
            {action}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
