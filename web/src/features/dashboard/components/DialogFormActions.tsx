import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'

/** The server's refusal of a dialog's form, shown in the dialog. */
export function DialogFormError({ message }: { message?: string }) {
  if (!message) return null
  return (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700 ring-1 ring-inset ring-red-200">
      {message}
    </p>
  )
}

/** A form dialog's Cancel and submit buttons, both held while it saves. */
export function DialogFormActions({
  saving,
  label,
  savingLabel,
  onCancel,
}: {
  saving: boolean
  label: string
  savingLabel: string
  onCancel: () => void
}) {
  return (
    <DialogFooter>
      <Button variant="outline" disabled={saving} onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" disabled={saving}>
        {saving ? savingLabel : label}
      </Button>
    </DialogFooter>
  )
}
