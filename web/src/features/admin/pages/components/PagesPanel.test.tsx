import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { AdminPage } from '../api/pages'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

let nextId = 1
function page(slug: string, title: string, extra: Partial<AdminPage> = {}): AdminPage {
  return {
    id: nextId++,
    slug,
    title,
    content: `## ${title}\n\nText.`,
    metaTitle: title,
    headTitle: title,
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

/** A fake /api/admin/pages over a list, recording the writes, with the server's slug rules. */
function servePages(initial: AdminPage[]) {
  const state = { list: [...initial], posts: [] as Record<string, unknown>[], patches: [] as Record<string, unknown>[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/admin/pages', () => HttpResponse.json({ success: true, data: state.list })),
    http.post('/api/admin/pages', async ({ request }) => {
      const body = (await request.json()) as Partial<AdminPage>
      state.posts.push(body)
      if (state.list.some((p) => p.slug === body.slug)) {
        return HttpResponse.json(
          { success: false, error: `Slug ${body.slug} is already used by another page`, code: 'conflict', field: 'slug' },
          { status: 409 },
        )
      }
      const created = page(String(body.slug), String(body.title), body)
      state.list.push(created)
      return HttpResponse.json({ success: true, data: created }, { status: 201 })
    }),
    http.patch('/api/admin/pages/:id', async ({ request, params }) => {
      const body = (await request.json()) as Partial<AdminPage>
      state.patches.push(body)
      const i = state.list.findIndex((p) => p.id === Number(params.id))
      if (body.content !== undefined && body.content.length > 20) {
        // The server's message, without the field member: the form still places it.
        return HttpResponse.json({ success: false, error: 'Content must be at most 20 characters' }, { status: 422 })
      }
      state.list[i] = { ...state.list[i], ...body }
      return HttpResponse.json({ success: true, data: state.list[i] })
    }),
    http.delete('/api/admin/pages/:id', ({ params }) => {
      state.list = state.list.filter((p) => p.id !== Number(params.id))
      return HttpResponse.json({ success: true })
    }),
  )
  return state
}

async function openPagesTab() {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name: 'Pages' }))
  const panel = within(await screen.findByRole('tabpanel', { name: 'Pages' }))
  return { ...view, panel }
}

describe('Pages tab', () => {
  it('lists pages with slug, type and published state, and toggles publishing', async () => {
    const state = servePages([page('terms', 'Terms of Service'), page('careers', 'Careers', { published: false, pageType: 'career' })])
    const { panel, events } = await openPagesTab()
    const list = within(await panel.findByRole('list', { name: 'Pages' }))
    const terms = within(list.getByText('Terms of Service').closest('li')!)
    expect(terms.getByText('Published')).toBeInTheDocument()
    expect(terms.getByRole('link', { name: /\/pages\/terms/ })).toHaveAttribute('href', '/pages/terms')
    const careers = within(list.getByText('Careers').closest('li')!)
    expect(careers.getByText('Draft')).toBeInTheDocument()
    expect(careers.getByText('Career')).toBeInTheDocument()

    await events.click(terms.getByRole('switch', { name: 'Published: Terms of Service' }))
    expect(await screen.findByText('Page Terms of Service unpublished')).toBeInTheDocument()
    expect(state.patches).toEqual([{ published: false }])
    await waitFor(() => expect(terms.getByText('Draft')).toBeInTheDocument())
  })

  it('creates a page: spec validation first, then the server field error beside its field', async () => {
    const state = servePages([page('terms', 'Terms of Service')])
    const { panel, events } = await openPagesTab()
    await events.click(await panel.findByRole('button', { name: 'New Page' }))
    const form = within(await screen.findByRole('form', { name: 'New page' }))
    await events.click(form.getByRole('button', { name: 'Create Page' }))
    expect(await form.findByText('Title is required')).toBeInTheDocument()
    expect(form.getByText('Slug is required')).toBeInTheDocument()
    expect(form.getByText('Content is required')).toBeInTheDocument()
    expect(state.posts).toHaveLength(0)

    await events.type(form.getByLabelText('Title'), 'Terms')
    expect(form.getByLabelText('Slug')).toHaveValue('terms')
    await events.type(form.getByLabelText('Content'), '## Hello')
    await events.click(form.getByRole('button', { name: 'Preview' }))
    expect(await form.findByRole('heading', { name: 'Hello' })).toBeInTheDocument()
    await events.click(form.getByRole('button', { name: 'Create Page' }))
    expect(await form.findByText('Slug terms is already used by another page')).toBeInTheDocument()
    expect(form.getByLabelText('Slug')).toHaveAttribute('aria-invalid', 'true')

    await events.clear(form.getByLabelText('Slug'))
    await events.type(form.getByLabelText('Slug'), 'Bad Slug')
    await events.click(form.getByRole('button', { name: 'Create Page' }))
    expect(await form.findByText('Slug may contain only lowercase letters, digits and hyphens')).toBeInTheDocument()
    expect(state.posts).toHaveLength(1)

    await events.clear(form.getByLabelText('Slug'))
    await events.type(form.getByLabelText('Slug'), 'new-terms')
    await events.click(form.getByRole('button', { name: 'Create Page' }))
    expect(await screen.findByText('Page Terms created')).toBeInTheDocument()
    expect(state.posts[1]).toMatchObject({ slug: 'new-terms', title: 'Terms', content: '## Hello', published: false, pageType: 'page' })
    expect(await panel.findByText('/pages/new-terms')).toBeInTheDocument()
  })

  it('edits a page and places a message naming a field beside it', async () => {
    const state = servePages([page('privacy', 'Privacy Policy')])
    const { panel, events } = await openPagesTab()
    await events.click(await panel.findByRole('button', { name: 'Edit Privacy Policy' }))
    const form = within(await screen.findByRole('form', { name: 'Edit page' }))
    expect(form.getByLabelText('Content')).toHaveValue('## Privacy Policy\n\nText.')
    await events.type(form.getByLabelText('Content'), ' More.')
    await events.click(form.getByRole('button', { name: 'Save Changes' }))
    expect(await form.findByText('Content must be at most 20 characters')).toBeInTheDocument()

    await events.clear(form.getByLabelText('Content'))
    await events.type(form.getByLabelText('Content'), 'Short.')
    await events.click(form.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Page Privacy Policy updated')).toBeInTheDocument()
    expect(state.patches.at(-1)).toMatchObject({ content: 'Short.', slug: 'privacy' })
  })

  it('deletes after confirmation', async () => {
    const state = servePages([page('press', 'Press')])
    const { panel, events } = await openPagesTab()
    await events.click(await panel.findByRole('button', { name: 'Delete Press' }))
    const dialog = within(await screen.findByRole('dialog'))
    expect(dialog.getByText(/\/pages\/press will show the not-found page/)).toBeInTheDocument()
    await events.click(dialog.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Page Press deleted')).toBeInTheDocument()
    expect(state.list).toHaveLength(0)
    await waitFor(() => expect(panel.queryByText('Press')).not.toBeInTheDocument())
  })
})
