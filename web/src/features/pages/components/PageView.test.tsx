import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { server } from '@/test/server'
import type { Page } from '../api/pages'

function page(slug: string, title: string, content: string, extra: Partial<Page> = {}): Page {
  return {
    id: 1,
    slug,
    title,
    content,
    metaTitle: '',
    headTitle: extra.metaTitle || title,
    metaDescription: '',
    published: true,
    authorId: null,
    featuredImage: '',
    pageType: 'page',
    createdAt: '2026-03-04T10:00:00Z',
    updatedAt: '2026-03-04T10:00:00Z',
    ...extra,
  }
}

/** A fake GET /api/pages/{slug} over pages; any other slug is 404 as on the server. */
function servePages(...pages: Page[]) {
  server.use(
    http.get('/api/pages/:slug', ({ params }) => {
      const found = pages.find((p) => p.slug === params.slug)
      return found
        ? HttpResponse.json({ success: true, data: found })
        : HttpResponse.json({ success: false, error: 'Page not found', code: 'not_found' }, { status: 404 })
    }),
  )
}

describe('/pages/$slug', () => {
  it('renders the Markdown of a published page with its meta title and description', async () => {
    servePages(
      page('cookies', 'Cookie Policy', 'Intro text.\n\n## The cookies we set\n\n| Cookie | Purpose |\n| --- | --- |\n| `nameport_session` | Keeps you signed in |\n\nSee the [Privacy Policy](/pages/privacy).', {
        metaTitle: 'Cookies at Nameport',
        metaDescription: 'The cookies this service sets.',
      }),
    )
    const meta = document.createElement('meta')
    meta.name = 'description'
    meta.content = 'The site description'
    document.head.append(meta)
    try {
      renderApp('/pages/cookies', { user: null })
      expect(await screen.findByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeInTheDocument()
      expect(screen.getByRole('heading', { level: 2, name: 'The cookies we set' })).toBeInTheDocument()
      const table = screen.getByRole('table')
      expect(within(table).getByRole('cell', { name: 'nameport_session' })).toBeInTheDocument()
      const article = within(screen.getByRole('article'))
      expect(article.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/pages/privacy')
      expect(screen.getByText(/Last updated Mar 4, 2026/)).toBeInTheDocument()
      await waitFor(() => expect(document.title).toBe('Cookies at Nameport · Nameport'))
      expect(meta.content).toBe('The cookies this service sets.')
    } finally {
      meta.remove()
    }
  })

  it('shows raw HTML and unsafe links as harmless text', async () => {
    servePages(
      page('terms', 'Terms of Service', 'Hello <b id="raw">bold</b>\n\n<script>window.pwned = true</script>\n\n[click](javascript:alert(1))'),
    )
    renderApp('/pages/terms', { user: null })
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument()
    expect(document.getElementById('raw')).toBeNull()
    expect(document.querySelector('article script')).toBeNull()
    expect((window as { pwned?: boolean }).pwned).toBeUndefined()
    const link = within(screen.getByRole('article')).getByText('click').closest('a')
    expect(link?.getAttribute('href') ?? '').not.toMatch(/javascript/i)
  })

  it('is the not-found page for a slug the server does not publish', async () => {
    servePages()
    renderApp('/pages/draft-page', { user: null })
    expect(await screen.findByRole('heading', { name: "This domain doesn't exist" })).toBeInTheDocument()
  })

  it('marks a draft an admin previews', async () => {
    servePages(page('careers', 'Careers', 'Soon.', { published: false }))
    renderApp('/pages/careers', { user: null })
    expect(await screen.findByText('Draft: this page is not published. Only admins can see it.')).toBeInTheDocument()
  })
})

describe('footer', () => {
  it('links the legal pages, Contact Support and the API documentation; the rest are plain text', async () => {
    servePages(
      page('terms', 'Terms of Service', 'The terms.'),
      page('privacy', 'Privacy Policy', 'What we collect.', { id: 2 }),
    )
    const { events, router } = renderApp('/pages/terms', { user: null })
    const footer = within(await screen.findByRole('contentinfo'))
    expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/pages/terms')
    expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/pages/privacy')
    expect(footer.getByRole('link', { name: 'Cookie Policy' })).toHaveAttribute('href', '/pages/cookies')
    expect(footer.getByRole('link', { name: 'API Documentation' })).toHaveAttribute('href', '/docs')
    expect(footer.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/#contact')
    for (const name of ['Domain Registration', 'About Us', 'Careers', 'Help Center', 'Status Page']) {
      expect(footer.getByText(name)).toBeInTheDocument()
      expect(footer.queryByRole('link', { name })).toBeNull()
    }
    expect(footer.queryAllByRole('link').filter((a) => a.getAttribute('href') === '#')).toEqual([])

    await events.click(footer.getByRole('link', { name: 'Privacy Policy' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/pages/privacy')
  })
})
