import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Markdown } from '@/components/Markdown'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { serverMessage } from '@/lib/api'
import { PAGE_TYPES, createPage, fieldOf, refreshPages, updatePage, type AdminPage } from '../api/pages'

// The spec's rules (Page: slug required, lowercase letters, digits and
// hyphens only; title and content required), checked again by the server.
const schema = z.object({
  title: z.string().trim().min(1, 'Title is required').max(200, 'Title must be at most 200 characters'),
  slug: z
    .string()
    .trim()
    .min(1, 'Slug is required')
    .max(100, 'Slug must be at most 100 characters')
    .regex(/^[a-z0-9-]+$/, 'Slug may contain only lowercase letters, digits and hyphens'),
  pageType: z.enum(PAGE_TYPES as [AdminPage['pageType'], ...AdminPage['pageType'][]]),
  content: z.string().refine((v) => v.trim() !== '', 'Content is required'),
  metaTitle: z.string().trim().max(200, 'Meta title must be at most 200 characters'),
  metaDescription: z.string().trim().max(500, 'Meta description must be at most 500 characters'),
  published: z.boolean(),
})
type Values = z.infer<typeof schema>

const typeLabels: Record<AdminPage['pageType'], string> = {
  page: 'Page',
  blog: 'Blog',
  career: 'Career',
  about: 'About',
  press: 'Press',
  contact: 'Contact',
  api: 'API',
}

export function pageTypeLabel(type: AdminPage['pageType']): string {
  return typeLabels[type]
}

const empty: Values = {
  title: '',
  slug: '',
  pageType: 'page',
  content: '',
  metaTitle: '',
  metaDescription: '',
  published: false,
}

/** "About Us!" → "about-us": a slug suggested from a new page's title. */
function slugOf(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
}

/** Creates a page (page null) or edits one, with a preview of its Markdown. */
export function PageFormDialog({ open, page, onClose }: { open: boolean; page: AdminPage | null; onClose: () => void }) {
  const queryClient = useQueryClient()
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: empty })
  const { errors } = form.formState

  useEffect(() => {
    if (!open) return
    setTab('write')
    form.reset(
      page
        ? {
            title: page.title,
            slug: page.slug,
            pageType: page.pageType,
            content: page.content,
            metaTitle: page.metaTitle,
            metaDescription: page.metaDescription,
            published: page.published,
          }
        : empty,
    )
  }, [open, page, form])

  // A new page's slug follows its title until the slug is edited by hand.
  const slugTouched = form.formState.dirtyFields.slug
  const titleField = form.register('title', {
    onChange: (event: { target: { value: string } }) => {
      if (!page && !slugTouched) form.setValue('slug', slugOf(event.target.value))
    },
  })

  const save = useMutation({
    mutationFn: (values: Values) => (page ? updatePage(page.id, values) : createPage(values)),
    onSuccess: (saved) => {
      toast({ title: 'Success', description: page ? `Page ${saved.title} updated` : `Page ${saved.title} created` })
      void refreshPages(queryClient)
      onClose()
    },
    onError: (error) => {
      const field = fieldOf(error)
      if (field && field !== 'featuredImage') {
        if (field === 'content') setTab('write')
        form.setError(field, { message: serverMessage(error) }, { shouldFocus: true })
        return
      }
      toast({
        title: 'Error',
        variant: 'destructive',
        description: serverMessage(error) ?? (page ? 'Failed to update page' : 'Failed to create page'),
      })
    },
  })

  const content = form.watch('content')
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent wide>
        <DialogHeader>
          <DialogTitle>{page ? `Edit ${page.title}` : 'New Page'}</DialogTitle>
          <DialogDescription>
            Content is Markdown: ## for a heading, - for a list item, [text](/path) for a link. HTML is shown as text.
          </DialogDescription>
        </DialogHeader>
        <form
          aria-label={page ? 'Edit page' : 'New page'}
          noValidate
          onSubmit={form.handleSubmit((values) => save.mutate(values))}
          className="mt-4 space-y-4"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Title" error={errors.title?.message}>
              {(ids) => <Input {...ids} autoComplete="off" {...titleField} />}
            </Field>
            <Field label="Slug" error={errors.slug?.message} hint={`Address: /pages/${form.watch('slug') || 'slug'}`}>
              {(ids) => <Input {...ids} autoComplete="off" spellCheck={false} {...form.register('slug')} />}
            </Field>
          </div>
          <Field label="Type" error={errors.pageType?.message} className="sm:w-1/2 sm:pr-2">
            {(ids) => (
              <Select {...ids} {...form.register('pageType')}>
                {PAGE_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {typeLabels[t]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <div className="space-y-1.5">
            <div className="flex items-center justify-between gap-2">
              <span className="text-sm font-medium text-slate-700">Content</span>
              <div role="group" aria-label="Content view" className="inline-flex rounded-lg bg-slate-100 p-0.5 text-sm">
                {(['write', 'preview'] as const).map((t) => (
                  <button
                    key={t}
                    type="button"
                    aria-pressed={tab === t}
                    onClick={() => setTab(t)}
                    className={`rounded-md px-3 py-1 font-medium transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
                      tab === t ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
                    }`}
                  >
                    {t === 'write' ? 'Write' : 'Preview'}
                  </button>
                ))}
              </div>
            </div>
            {tab === 'write' ? (
              <Field label={<span className="sr-only">Content</span>} error={errors.content?.message} className="-mt-1.5">
                {(ids) => <Textarea {...ids} rows={14} className="font-mono" {...form.register('content')} />}
              </Field>
            ) : (
              <div
                aria-label="Preview"
                className="max-h-[22rem] min-h-[10rem] overflow-y-auto rounded-lg border border-slate-200 bg-white px-4 pb-4"
              >
                {content.trim() ? (
                  <Markdown>{content}</Markdown>
                ) : (
                  <p className="pt-4 text-sm text-slate-500">Nothing to preview yet.</p>
                )}
              </div>
            )}
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Meta title (optional)" error={errors.metaTitle?.message} hint="The browser tab and search result title; the title when empty.">
              {(ids) => <Input {...ids} autoComplete="off" {...form.register('metaTitle')} />}
            </Field>
            <Field label="Meta description (optional)" error={errors.metaDescription?.message}>
              {(ids) => <Textarea {...ids} rows={3} {...form.register('metaDescription')} />}
            </Field>
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...form.register('published')} />
            Published (visible to everyone at its address)
          </label>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {page ? 'Save Changes' : 'Create Page'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
