import { Lock, Star, Trash2, Unlock } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cx } from '@/lib/classNames'
import type { BulkAction } from '../api/premiumAdmin'

const bulkActions: Array<{ action: BulkAction; label: string; icon: typeof Star }> = [
  { action: 'makeAvailable', label: 'Make Available', icon: Unlock },
  { action: 'makeUnavailable', label: 'Make Unavailable', icon: Lock },
  { action: 'feature', label: 'Feature', icon: Star },
  { action: 'unfeature', label: 'Unfeature', icon: Star },
]

/** Select all, the count selected, and the actions that apply to every selected name. */
export function PremiumBulkActions({
  allShownSelected,
  toggleAll,
  shownCount,
  selectedCount,
  runBulk,
  busy,
}: {
  allShownSelected: boolean
  toggleAll: () => void
  shownCount: number
  selectedCount: number
  runBulk: (action: BulkAction) => void
  busy: boolean
}) {
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-slate-50 p-2 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-3 px-1">
        <label className="inline-flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
            checked={allShownSelected}
            onChange={toggleAll}
            disabled={shownCount === 0}
          />
          Select all
        </label>
        <span className="text-sm text-slate-500" aria-live="polite">
          {selectedCount} selected
        </span>
      </div>
      <div role="group" aria-label="Bulk actions" className="flex flex-wrap gap-1.5">
        {bulkActions.map(({ action, label, icon: Icon }) => (
          <Button
            key={action}
            size="sm"
            variant="outline"
            onClick={() => runBulk(action)}
            disabled={busy}
          >
            <Icon className={cx('h-3.5 w-3.5', action === 'feature' && 'fill-amber-400 text-amber-500')} aria-hidden />
            {label}
          </Button>
        ))}
        <Button size="sm" variant="destructive" onClick={() => runBulk('delete')} disabled={busy}>
          <Trash2 className="h-3.5 w-3.5" aria-hidden />
          Delete
        </Button>
      </div>
    </div>
  )
}
