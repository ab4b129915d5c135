import type { ComponentPropsWithoutRef } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { cx } from '@/lib/classNames'

/**
 * Markdown an admin wrote (the pages of /pages/$slug), rendered as the
 * site's own text: react-markdown builds React elements and renders no raw
 * HTML (an HTML tag shows as text), and its URL check drops javascript: and
 * other unsafe links. GitHub-flavoured tables and lists come from
 * remark-gfm. Import this only from lazily loaded code: the parser is the
 * largest part of a page's chunk.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={cx('text-base leading-7 text-slate-700', className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {children}
      </ReactMarkdown>
    </div>
  )
}

function MarkdownLink({ href = '', children, node: _node, ...props }: ComponentPropsWithoutRef<'a'> & { node?: unknown }) {
  // Links leaving the site open in a new tab; the site's own stay.
  const external = /^https?:\/\//i.test(href)
  return (
    <a
      {...props}
      href={href}
      className="font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-900"
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
    </a>
  )
}

// Element styles of a readable document (what Tailwind's typography plugin
// would give, for the few elements pages use).
const components: Components = {
  h1: ({ node: _node, ...props }) => <h2 className="mt-10 text-2xl font-bold tracking-tight text-slate-900" {...props} />,
  h2: ({ node: _node, ...props }) => <h2 className="mt-10 text-xl font-semibold tracking-tight text-slate-900" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mt-8 text-lg font-semibold text-slate-900" {...props} />,
  h4: ({ node: _node, ...props }) => <h4 className="mt-6 font-semibold text-slate-900" {...props} />,
  p: ({ node: _node, ...props }) => <p className="mt-4" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="mt-4 list-disc space-y-2 pl-6 marker:text-slate-400" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="mt-4 list-decimal space-y-2 pl-6 marker:text-slate-500" {...props} />,
  li: ({ node: _node, ...props }) => <li className="pl-1" {...props} />,
  a: MarkdownLink,
  strong: ({ node: _node, ...props }) => <strong className="font-semibold text-slate-900" {...props} />,
  blockquote: ({ node: _node, ...props }) => (
    <blockquote className="mt-4 border-l-4 border-slate-200 pl-4 italic text-slate-600" {...props} />
  ),
  code: ({ node: _node, ...props }) => (
    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.875em] text-slate-800" {...props} />
  ),
  pre: ({ node: _node, ...props }) => (
    <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100 [&_code]:bg-transparent [&_code]:p-0 [&_code]:text-inherit" {...props} />
  ),
  hr: ({ node: _node, ...props }) => <hr className="my-8 border-slate-200" {...props} />,
  // A table keeps readable columns and scrolls inside the page on a phone
  // instead of squeezing them or widening the page.
  table: ({ node: _node, ...props }) => (
    // Focusable, so a keyboard can scroll it too.
    <div
      tabIndex={0}
      role="region"
      aria-label="Table"
      className="mt-6 overflow-x-auto rounded-lg ring-1 ring-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="w-full min-w-[34rem] divide-y divide-slate-200 text-left text-sm" {...props} />
    </div>
  ),
  thead: ({ node: _node, ...props }) => <thead className="bg-slate-50" {...props} />,
  tbody: ({ node: _node, ...props }) => <tbody className="divide-y divide-slate-200 bg-white" {...props} />,
  th: ({ node: _node, ...props }) => <th className="px-4 py-3 font-semibold text-slate-900" {...props} />,
  td: ({ node: _node, ...props }) => <td className="px-4 py-3 align-top" {...props} />,
  img: ({ node: _node, alt, ...props }) => <img className="mt-6 rounded-lg" alt={alt ?? ''} loading="lazy" {...props} />,
}
