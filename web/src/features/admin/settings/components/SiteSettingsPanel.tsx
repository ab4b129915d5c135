import { useEffect, useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Lock, Pencil, Plus, Trash2, Wand2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { SITE_URL } from '@/lib/site'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { toast } from '@/components/toast/toastStore'
import { HelpTooltip } from '@/components/help/HelpTooltip'
import { serverMessage } from '@/lib/api'
import {
  FORM_CATEGORIES,
  SITE_SETTINGS_URL,
  createSetting,
  deleteSetting,
  siteSettingsQueryOptions,
  updateSetting,
  type SettingCategory,
  type SiteSetting,
} from '../api/settings'

const subTabs: { value: SettingCategory; label: string }[] = [
  { value: 'branding', label: 'Branding' },
  { value: 'contact', label: 'Contact Info' },
  { value: 'social', label: 'Social Media' },
  { value: 'seo', label: 'SEO' },
]

const categoryLabels: Record<string, string> = {
  branding: 'Branding',
  contact: 'Contact',
  social: 'Social',
  seo: 'SEO',
  general: 'General',
}

/** What Quick Setup adds when missing: the basics of the site's look. */
export const COMMON_SETTINGS = [
  { key: 'site_name', value: 'Nameport', description: 'Name shown in the header and page titles' },
  { key: 'logo_url', value: '/logo.svg', description: 'Path of the site logo' },
  { key: 'favicon_url', value: '/favicon.ico', description: 'Path of the browser tab icon' },
  { key: 'primary_color', value: '#2563eb', description: 'Main colour of buttons and links' },
]

const schema = z.object({
  key: z.string().trim().min(1, 'Setting key is required'),
  value: z.string().trim().min(1, 'Setting value is required'),
  category: z.enum(['branding', 'contact', 'social', 'seo', 'general']),
  description: z.string(),
  isPublic: z.boolean(),
})
type Values = z.infer<typeof schema>

function failed(fallback: string, error: unknown) {
  toast({ title: 'Error', description: serverMessage(error) ?? fallback, variant: 'destructive' })
}

export function SiteSettingsPanel() {
  const queryClient = useQueryClient()
  const { data, isPending, isError } = useQuery(siteSettingsQueryOptions())
  const [category, setCategory] = useState<SettingCategory>('branding')
  const [editing, setEditing] = useState<SiteSetting | null>(null)
  const [deleting, setDeleting] = useState<SiteSetting | null>(null)
  const settings = useMemo(() => (data ?? []).filter((s) => s.category !== 'payment'), [data])
  // The public site (header, colours, titles) reads the same settings.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [SITE_SETTINGS_URL] }),
      queryClient.invalidateQueries({ queryKey: [SITE_URL] }),
    ])

  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { key: '', value: '', category: 'branding', description: '', isPublic: true },
  })
  // Selecting a setting loads it; leaving it empties the form.
  useEffect(() => {
    if (editing) {
      form.reset({
        key: editing.key,
        value: editing.value,
        category: editing.category === 'payment' ? 'general' : editing.category,
        description: editing.description,
        isPublic: editing.isPublic,
      })
    } else {
      form.reset({ key: '', value: '', category: 'branding', description: '', isPublic: true })
    }
  }, [editing, form])
  // A new setting goes to the sub-tab shown, keeping what was typed.
  useEffect(() => {
    if (!editing && category !== 'payment') form.setValue('category', category)
  }, [editing, category, form])

  const save = useMutation({
    mutationFn: (values: Values) => (editing ? updateSetting(editing.id, values) : createSetting(values)),
    onSuccess: (saved) => {
      toast({
        title: 'Success',
        description: editing ? 'Site setting updated successfully' : 'Site setting created successfully',
      })
      setEditing(null)
      if (subTabs.some((t) => t.value === saved.category)) setCategory(saved.category)
      void refresh()
    },
    onError: (error) => failed(editing ? 'Failed to update site setting' : 'Failed to create site setting', error),
  })

  const remove = useMutation({
    mutationFn: (s: SiteSetting) => deleteSetting(s.id),
    onSuccess: (_, s) => {
      toast({ title: 'Success', description: `Setting ${s.key} deleted` })
      if (editing?.id === s.id) setEditing(null)
      setDeleting(null)
      void refresh()
    },
    onError: (error) => {
      setDeleting(null)
      failed('Failed to delete site setting', error)
    },
  })

  const quickSetup = useMutation({
    mutationFn: async () => {
      const have = new Set(settings.map((s) => s.key))
      const missing = COMMON_SETTINGS.filter((s) => !have.has(s.key))
      if (missing.length === 0) return 0
      const results = await Promise.allSettled(
        missing.map((s) => createSetting({ ...s, category: 'branding', isPublic: true })),
      )
      if (results.some((r) => r.status === 'rejected')) throw new Error('Failed to add some common settings')
      return missing.length
    },
    onSuccess: (added) => {
      if (added === 0) {
        toast({ title: 'Info', description: 'Common settings are already configured' })
        return
      }
      toast({ title: 'Success', description: `Added ${added} common branding settings` })
      setCategory('branding')
    },
    onError: () => toast({ title: 'Error', description: 'Failed to add some common settings', variant: 'destructive' }),
    onSettled: () => void refresh(),
  })

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>Site Settings</CardTitle>
          <CardDescription>Names, contact details, social links and search metadata the site shows.</CardDescription>
        </div>
        <HelpTooltip topic="admin-tools" label="Help" align="end">
          <p>
            Site settings are named values the site reads: its name and logo, contact details, social links and
            search-engine metadata. Public settings are readable by every visitor; private ones only by admins.
          </p>
          <p>Select a setting to change it, or use the form to add one. Quick Setup adds the usual branding basics.</p>
        </HelpTooltip>
      </CardHeader>
      <CardContent>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Tabs value={category} onValueChange={(v) => setCategory(v as SettingCategory)}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <TabsList aria-label="Setting categories">
                {subTabs.map((t) => (
                  <TabsTrigger key={t.value} value={t.value}>
                    {t.label}
                  </TabsTrigger>
                ))}
              </TabsList>
            </div>
            {subTabs.map((t) => {
              const rows = settings.filter((s) => s.category === t.value)
              return (
                <TabsContent key={t.value} value={t.value}>
                  {t.value === 'branding' && (
                    <div className="mb-3 flex justify-end">
                      <Button
                        variant="outline"
                        size="sm"
                        onClick={() => quickSetup.mutate()}
                        disabled={quickSetup.isPending || isPending}
                      >
                        <Wand2 className="h-4 w-4" aria-hidden />
                        Quick Setup
                      </Button>
                    </div>
                  )}
                  {isPending ? (
                    <Spinner label="Loading settings" />
                  ) : isError ? (
                    <p className="py-8 text-center text-sm text-red-600">Failed to load site settings.</p>
                  ) : rows.length === 0 ? (
                    <p className="py-8 text-center text-sm text-slate-500">No {t.label.toLowerCase()} settings yet.</p>
                  ) : (
                    <ul
                      aria-label={`${t.label} settings`}
                      className="divide-y divide-slate-100 rounded-lg border border-slate-200"
                    >
                      {rows.map((s) => (
                        <li
                          key={s.id}
                          className={`flex items-start gap-2 p-3 ${editing?.id === s.id ? 'bg-brand-50' : ''}`}
                        >
                          <button
                            type="button"
                            onClick={() => setEditing(s)}
                            className="min-w-0 flex-1 rounded text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                            aria-label={`Edit ${s.key}`}
                          >
                            <span className="flex flex-wrap items-center gap-2">
                              <span className="font-mono text-sm font-medium text-slate-900">{s.key}</span>
                              {!s.isPublic && (
                                <Badge tone="muted">
                                  <Lock className="h-3 w-3" aria-hidden />
                                  Private
                                </Badge>
                              )}
                            </span>
                            <span className="mt-0.5 block break-all text-sm text-slate-700">{s.value}</span>
                            {s.description && (
                              <span className="mt-0.5 block text-xs text-slate-500">{s.description}</span>
                            )}
                          </button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Edit ${s.key}`}
                            onClick={() => setEditing(s)}
                          >
                            <Pencil className="h-4 w-4" aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            aria-label={`Delete ${s.key}`}
                            onClick={() => setDeleting(s)}
                          >
                            <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
                          </Button>
                        </li>
                      ))}
                    </ul>
                  )}
                </TabsContent>
              )
            })}
          </Tabs>

          <form
            aria-label={editing ? 'Edit setting' : 'New setting'}
            noValidate
            onSubmit={form.handleSubmit((values) => save.mutate(values))}
            className="space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4"
          >
            <h3 className="flex items-center gap-2 font-semibold text-slate-900">
              {editing ? <Pencil className="h-4 w-4" aria-hidden /> : <Plus className="h-4 w-4" aria-hidden />}
              {editing ? `Edit ${editing.key}` : 'New setting'}
            </h3>
            <Field label="Key" error={form.formState.errors.key?.message}>
              {(ids) => <Input {...ids} placeholder="site_name" autoComplete="off" {...form.register('key')} />}
            </Field>
            <Field label="Value" error={form.formState.errors.value?.message}>
              {(ids) => <Textarea {...ids} rows={2} {...form.register('value')} />}
            </Field>
            <Field label="Category">
              {(ids) => (
                <Select {...ids} {...form.register('category')}>
                  {FORM_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {categoryLabels[c]}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Description (optional)">
              {(ids) => <Input {...ids} {...form.register('description')} />}
            </Field>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register('isPublic')} />
              Public (visible to every visitor)
            </label>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={save.isPending}>
                {editing ? 'Save Changes' : 'Create Setting'}
              </Button>
              {editing && (
                <Button type="button" variant="outline" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              )}
            </div>
          </form>
        </div>
      </CardContent>

      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete setting?</DialogTitle>
            <DialogDescription>
              {deleting?.key} will be removed. Pages that read it fall back to their defaults.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => deleting && remove.mutate(deleting)}
            >
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  )
}
