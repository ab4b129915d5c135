import { useEffect } from 'react'
import { useSuspenseQuery } from '@tanstack/react-query'
import { Markdown } from '@/components/Markdown'
import { formatDate } from '@/lib/format'
import { useDocumentTitle } from '@/lib/useDocumentTitle'
import { pageQueryOptions } from '../api/pages'

/** Sets the page's meta description while it is shown; the site's comes back after. */
function useMetaDescription(description: string): void {
  useEffect(() => {
    const tag = document.querySelector<HTMLMetaElement>('meta[name="description"]')
    if (!tag || !description) return
    const previous = tag.content
    tag.content = description
    return () => {
      tag.content = previous
    }
  }, [description])
}

/** A published page (an admin sees a draft too, marked as such). */
export function PageView({ slug }: { slug: string }) {
  const { data: page } = useSuspenseQuery(pageQueryOptions(slug))
  useDocumentTitle(page.headTitle)
  useMetaDescription(page.metaDescription)
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
      {!page.published && (
        <p role="status" className="mb-8 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          Draft: this page is not published. Only admins can see it.
        </p>
      )}
      <header className="border-b border-slate-200 pb-8">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{page.title}</h1>
        <p className="mt-3 text-sm text-slate-500">Last updated {formatDate(page.updatedAt)}</p>
      </header>
      {page.featuredImage && (
        <img src={page.featuredImage} alt="" className="mt-8 w-full rounded-xl object-cover ring-1 ring-slate-200" />
      )}
      <Markdown className="mt-4">{page.content}</Markdown>
    </article>
  )
}
