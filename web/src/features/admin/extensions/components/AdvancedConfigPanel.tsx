import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Spinner } from '@/components/ui/Spinner'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { cx } from '@/lib/classNames'
import { adminExtensionsQueryOptions, withDot } from '../api/extensions'
import { ExtensionConfigForm } from './ExtensionConfigForm'

/** The Advanced Config tab: every extension's whole configuration. */
export function AdvancedConfigPanel() {
  const { data, isPending, isError } = useQuery(adminExtensionsQueryOptions())
  // null: a new extension; undefined: the first one, once the list is loaded.
  const [selectedId, setSelectedId] = useState<number | null | undefined>(undefined)
  const [section, setSection] = useState('basic')
  const list = data ?? []
  const selected = selectedId === null ? null : (list.find((e) => e.id === selectedId) ?? list[0] ?? null)

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0 p-4 sm:p-6">
        <div className="space-y-1">
          <CardTitle>Advanced Config</CardTitle>
          <CardDescription>DNS, contacts, verification, renewal rules and features of each extension.</CardDescription>
        </div>
        <HelpTooltip topic="admin-tools" label="Help" align="end">
          <p>
            Pick an extension on the left to edit its whole configuration, or add a new one. Update is enabled once
            something has changed.
          </p>
          <p>
            DNS API keys and secrets are stored encrypted and only their last 4 characters are shown; leave them as they
            are to keep them, or type a new one to replace them.
          </p>
        </HelpTooltip>
      </CardHeader>
      <CardContent className="p-4 pt-0 sm:p-6 sm:pt-0">
        {isPending ? (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        ) : isError ? (
          <p className="py-10 text-center text-red-600">Failed to load domain extensions.</p>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
            <nav aria-label="Extensions" className="space-y-1">
              <ul className="space-y-1">
                {list.map((e) => (
                  <li key={e.id}>
                    <button
                      type="button"
                      aria-current={selected?.id === e.id ? 'true' : undefined}
                      onClick={() => setSelectedId(e.id)}
                      className={cx(
                        'flex w-full items-center justify-between gap-2 rounded-lg px-3 py-2 text-left text-sm transition',
                        selected?.id === e.id ? 'bg-brand-50 text-brand-800 ring-1 ring-brand-200' : 'hover:bg-slate-50',
                      )}
                    >
                      <span className="font-medium">{withDot(e.extension)}</span>
                      <span className={cx('text-xs', e.active ? 'text-emerald-700' : 'text-slate-500')}>
                        {e.active ? 'Active' : 'Inactive'}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                aria-current={selectedId === null ? 'true' : undefined}
                onClick={() => setSelectedId(null)}
                className={cx(
                  'w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-brand-700 transition hover:bg-brand-50',
                  selectedId === null && 'bg-brand-50 ring-1 ring-brand-200',
                )}
              >
                + Add New Extension
              </button>
            </nav>
            <div className="min-w-0">
              <h3 className="mb-4 text-base font-semibold text-slate-900">
                {selected ? `Configure ${withDot(selected.extension)}` : 'New extension'}
              </h3>
              <ExtensionConfigForm
                key={selected ? `${selected.id}-${selected.updatedAt ?? ''}` : 'new'}
                selected={selected}
                onSaved={(id) => setSelectedId(id ?? undefined)}
                section={section}
                onSectionChange={setSection}
              />
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  )
}
