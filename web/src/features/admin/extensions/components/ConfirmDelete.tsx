import { ConfirmDialog } from '@/components/ui/ConfirmDialog'

/** Asks before an extension is deleted. */
export function ConfirmDelete({
  extension,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  extension: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onConfirm: () => void
  pending: boolean
}) {
  return (
    <ConfirmDialog
      open={open}
      title={`Delete ${extension}?`}
      description="Are you sure you want to delete this domain extension? This cannot be undone."
      pending={pending}
      onCancel={() => onOpenChange(false)}
      onConfirm={onConfirm}
    />
  )
}
