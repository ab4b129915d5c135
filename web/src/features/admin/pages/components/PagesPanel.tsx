import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ExternalLink, Pencil, Plus, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Spinner } from '@/components/ui/Spinner'
import { Switch } from '@/components/ui/Switch'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { adminPagesQueryOptions, deletePage, refreshPages, updatePage, type AdminPage } from '../api/pages'
import { PageFormDialog, pageTypeLabel } from './PageFormDialog'

/** The Pages tab: the pages admins write (the footer's legal pages among them). */
export function PagesPanel() {
  const queryClient = useQueryClient()
  const { data: pages, isPending, isError } = useQuery(adminPagesQueryOptions())
  // undefined: no dialog; null: a new page.
  const [editing, setEditing] = useState<AdminPage | null | undefined>(undefined)
  const [deleting, setDeleting] = useState<AdminPage | null>(null)

  const publish = useMutation({
    mutationFn: (page: AdminPage) => updatePage(page.id, { published: !page.published }),
    onSuccess: (saved) => {
      toast({
        title: 'Success',
        description: saved.published ? `Page ${saved.title} published` : `Page ${saved.title} unpublished`,
      })
      void refreshPages(queryClient)
    },
    onError: (error) =>
      toast({ title: 'Error', variant: 'destructive', description: serverMessage(error) ?? 'Failed to update page' }),
  })

  const remove = useMutation({
    mutationFn: (page: AdminPage) => deletePage(page.id),
    onSuccess: (_, page) => {
      toast({ title: 'Success', description: `Page ${page.title} deleted` })
      setDeleting(null)
      void refreshPages(queryClient)
    },
    onError: (error) => {
      setDeleting(null)
      toast({ title: 'Error', variant: 'destructive', description: serverMessage(error) ?? 'Failed to delete page' })
    },
  })

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div>
          <CardTitle>Pages</CardTitle>
          <CardDescription>
            Pages at /pages/&lt;slug&gt;: the Terms of Service, Privacy Policy and Cookie Policy the footer links to,
            and any page you add. Only published pages are visible to visitors.
          </CardDescription>
        </div>
        <Button onClick={() => setEditing(null)}>
          <Plus className="h-4 w-4" aria-hidden />
          New Page
        </Button>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <Spinner label="Loading pages" />
        ) : isError ? (
          <p className="py-8 text-center text-sm text-red-600">Failed to load pages.</p>
        ) : pages.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">No pages yet.</p>
        ) : (
          <ul aria-label="Pages" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {pages.map((page) => (
              <li key={page.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3 sm:flex-nowrap">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">{page.title}</span>
                    <Badge tone="muted">{pageTypeLabel(page.pageType)}</Badge>
                    {page.published ? <Badge tone="success">Published</Badge> : <Badge tone="neutral">Draft</Badge>}
                  </p>
                  <a
                    href={`/pages/${page.slug}`}
                    target="_blank"
                    rel="noopener"
                    className="mt-0.5 inline-flex items-center gap-1 break-all font-mono text-xs text-slate-500 hover:text-brand-700"
                  >
                    /pages/{page.slug}
                    <ExternalLink className="h-3 w-3" aria-hidden />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                </div>
                <div className="flex items-center gap-1">
                  <Switch
                    checked={page.published}
                    label={`Published: ${page.title}`}
                    disabled={publish.isPending}
                    onChange={() => publish.mutate(page)}
                  />
                  <Button variant="ghost" size="icon" aria-label={`Edit ${page.title}`} onClick={() => setEditing(page)}>
                    <Pencil className="h-4 w-4" aria-hidden />
                  </Button>
                  <Button variant="ghost" size="icon" aria-label={`Delete ${page.title}`} onClick={() => setDeleting(page)}>
                    <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>

      <PageFormDialog open={editing !== undefined} page={editing ?? null} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete page?"
        description={`${deleting?.title ?? ''} will be removed, and /pages/${deleting?.slug ?? ''} will show the not-found page.`}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </Card>
  )
}
