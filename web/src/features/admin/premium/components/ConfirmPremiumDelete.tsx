import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import type { AdminPremiumDomain } from '../api/premiumAdmin'
import { fullName } from './PremiumDomainList'

/** What a delete is about to remove: one name, or the selected ones. */
export type Confirm = { kind: 'one'; domain: AdminPremiumDomain } | { kind: 'bulk'; ids: number[] }

/** Asks before deleting premium names: deleting cannot be undone. */
export function ConfirmPremiumDelete({
  confirm,
  pending,
  onCancel,
  onConfirm,
}: {
  confirm: Confirm | null
  pending: boolean
  onCancel: () => void
  onConfirm: (confirm: Confirm) => void
}) {
  const what =
    confirm?.kind === 'bulk'
      ? `${confirm.ids.length} premium ${confirm.ids.length === 1 ? 'domain' : 'domains'}`
      : confirm?.kind === 'one'
        ? fullName(confirm.domain)
        : ''
  return (
    <ConfirmDialog
      open={confirm !== null}
      title={confirm?.kind === 'bulk' ? 'Delete selected domains?' : 'Delete premium domain?'}
      description={confirm ? `This deletes ${what}. This cannot be undone.` : null}
      pending={pending}
      onCancel={onCancel}
      onConfirm={() => confirm && onConfirm(confirm)}
    />
  )
}
