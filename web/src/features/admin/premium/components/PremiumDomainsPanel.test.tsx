import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, rules, server } from '@/test/server'
import type { AdminPremiumDomain } from '../api/premiumAdmin'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

function domain(id: number, name: string, extra: Partial<AdminPremiumDomain> = {}): AdminPremiumDomain {
  return {
    id,
    name,
    extension: '.inf.nz',
    price: 100,
    currentPrice: 100,
    discountPercentage: 0,
    discountValidUntil: null,
    discountActive: false,
    featured: false,
    description: '',
    category: 'general',
    keywords: [],
    isAvailable: true,
    ...extra,
  }
}

const seed = () => [
  domain(1, 'cloud', { price: 500, category: 'technology', featured: true, keywords: ['cloud', 'hosting', 'saas', 'web'] }),
  domain(2, 'shop', { extension: '.biz.ee', price: 350, discountPercentage: 20, discountActive: true, category: 'business' }),
  domain(3, 'home', { price: 600, isAvailable: false }),
]

/** Serves the admin premium API over an in-memory list and records writes. */
function servePremium(initial: AdminPremiumDomain[] = seed()) {
  const state = { domains: [...initial], posts: [] as unknown[], bulk: [] as unknown[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/premium-domains', () => HttpResponse.json({ success: true, data: state.domains })),
    http.post('/api/admin/premium-domains', async ({ request }) => {
      const body = (await request.json()) as Partial<AdminPremiumDomain>
      state.posts.push(body)
      const created = domain(100 + state.posts.length, body.name!, body)
      state.domains.push(created)
      return HttpResponse.json({ success: true, data: created }, { status: 201 })
    }),
    http.post('/api/admin/premium-domains/bulk', async ({ request }) => {
      const body = (await request.json()) as { action: string; ids: number[] }
      state.bulk.push(body)
      if (body.action === 'feature') {
        state.domains = state.domains.map((d) => (body.ids.includes(d.id) ? { ...d, featured: true } : d))
      }
      return HttpResponse.json({ success: true, data: { changed: body.ids.length } })
    }),
  )
  return state
}

async function openTab() {
  const view = renderApp('/admin-dashboard', { user: admin })
  const panel = within(await screen.findByRole('tabpanel', { name: 'Premium Domains' }))
  await panel.findByRole('table', { name: 'Premium domains' })
  return { ...view, panel }
}

const rowNames = (panel: ReturnType<typeof within>) =>
  panel
    .getAllByRole('rowheader')
    .map((cell: HTMLElement) => cell.textContent?.match(/^[a-z]+\.[a-z.]+?(?=Featured|$)/)?.[0] ?? cell.textContent)

/** The table (the phones' cards hold the same names and controls). */
const table = (panel: ReturnType<typeof within>) => within(panel.getByRole('table', { name: 'Premium domains' }))

afterEach(() => vi.restoreAllMocks())

// Typing through the dialog's three tabs takes a few seconds under a loaded test run.
describe('Premium Domains tab', { timeout: 15_000 }, () => {
  it('lists every name by name ascending with a count, and sorts with a flip', async () => {
    servePremium()
    const { panel, events } = await openTab()
    expect(panel.getByText('3 domains found')).toBeInTheDocument()
    expect(rowNames(panel)).toEqual(['cloud.inf.nz', 'home.inf.nz', 'shop.biz.ee'])
    expect(table(panel).getByText('Reserved')).toBeInTheDocument()

    await events.click(panel.getByRole('button', { name: /Sort: Name/ }))
    const sortBox = within(screen.getByRole('dialog', { name: 'Sort' }))
    await events.click(sortBox.getByRole('button', { name: /^Name/ }))
    expect(rowNames(panel)).toEqual(['shop.biz.ee', 'home.inf.nz', 'cloud.inf.nz'])
    await events.click(sortBox.getByRole('button', { name: /^Price/ }))
    expect(rowNames(panel)).toEqual(['shop.biz.ee', 'cloud.inf.nz', 'home.inf.nz'])
    await events.click(sortBox.getByRole('button', { name: /^Price/ }))
    expect(rowNames(panel)).toEqual(['home.inf.nz', 'cloud.inf.nz', 'shop.biz.ee'])
  })

  it('filters, shows the no-match empty state and clears the filters', async () => {
    servePremium()
    const { panel, events } = await openTab()
    await events.click(panel.getByRole('button', { name: 'Filters' }))
    const filters = within(screen.getByRole('dialog', { name: 'Filters' }))
    await events.selectOptions(filters.getByLabelText('Status'), 'Reserved')
    expect(rowNames(panel)).toEqual(['home.inf.nz'])
    expect(panel.getByText('1 domain found')).toBeInTheDocument()
    await events.selectOptions(filters.getByLabelText('Status'), 'All')
    await events.click(filters.getByLabelText('Featured only'))
    expect(rowNames(panel)).toEqual(['cloud.inf.nz'])
    await events.click(filters.getByRole('button', { name: 'Reset' }))
    expect(panel.getByText('3 domains found')).toBeInTheDocument()

    await events.type(panel.getByRole('searchbox', { name: 'Search premium domains' }), 'nothing-like-this')
    expect(panel.getByText('No domains match your filters')).toBeInTheDocument()
    await events.click(panel.getByRole('button', { name: 'Clear Filters' }))
    expect(panel.getByText('3 domains found')).toBeInTheDocument()
  })

  it('deletes one name after confirming and says so', async () => {
    const state = servePremium()
    server.use(
      http.delete('/api/admin/premium-domains/:id', ({ params }) => {
        state.domains = state.domains.filter((d) => String(d.id) !== params.id)
        return HttpResponse.json({ success: true, data: null })
      }),
    )
    const { panel, events } = await openTab()
    await events.click(table(panel).getByRole('button', { name: 'Delete home.inf.nz' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete premium domain?' }))
    await events.click(dialog.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Premium domain deleted successfully')).toBeInTheDocument()
    await waitFor(() => expect(rowNames(panel)).toEqual(['cloud.inf.nz', 'shop.biz.ee']))
  })

  it('says so when there are no premium names at all', async () => {
    servePremium([])
    renderApp('/admin-dashboard', { user: admin })
    const panel = within(await screen.findByRole('tabpanel', { name: 'Premium Domains' }))
    expect(await panel.findByText('No premium domains found')).toBeInTheDocument()
  })

  it('grid view shows two keywords and a count of the rest', async () => {
    servePremium()
    const { panel, events } = await openTab()
    await events.click(panel.getByRole('button', { name: 'Grid view' }))
    const card = within(panel.getByRole('listitem', { name: 'cloud.inf.nz' }))
    const keywords = within(card.getByLabelText('Keywords'))
    expect(keywords.getByText('cloud')).toBeInTheDocument()
    expect(keywords.getByText('hosting')).toBeInTheDocument()
    expect(keywords.queryByText('saas')).not.toBeInTheDocument()
    expect(keywords.getByText('+2 more')).toBeInTheDocument()
  })

  it('warns when a bulk action has nothing selected, then features the selected names', async () => {
    const state = servePremium()
    const { panel, events } = await openTab()
    const bulkBar = within(panel.getByRole('group', { name: 'Bulk actions' }))
    await events.click(bulkBar.getByRole('button', { name: 'Feature' }))
    expect(await screen.findByText('Please select at least one domain first')).toBeInTheDocument()
    expect(state.bulk).toEqual([])

    await events.click(table(panel).getByRole('checkbox', { name: 'Select shop.biz.ee' }))
    await events.click(table(panel).getByRole('checkbox', { name: 'Select home.inf.nz' }))
    expect(panel.getByText('2 selected')).toBeInTheDocument()
    await events.click(bulkBar.getByRole('button', { name: 'Feature' }))
    expect(await screen.findByText('Bulk action completed successfully')).toBeInTheDocument()
    expect(state.bulk).toEqual([{ action: 'feature', ids: [2, 3] }])
    await waitFor(() => expect(table(panel).getByRole('button', { name: 'Unfeature shop.biz.ee' })).toBeInTheDocument())

    await events.click(panel.getByRole('checkbox', { name: 'Select all' }))
    expect(panel.getByText('3 selected')).toBeInTheDocument()
    await events.click(bulkBar.getByRole('button', { name: 'Delete' }))
    expect(await screen.findByRole('dialog', { name: 'Delete selected domains?' })).toBeInTheDocument()
  })

  it('gives phones a card per name: select box, status, category, price and actions', async () => {
    servePremium()
    const { panel, events } = await openTab()
    // The cards are the table's list; CSS shows them below the sm breakpoint instead of the table.
    const list = within(panel.getByRole('list', { name: 'Premium domains' }))
    const cards = list.getAllByRole('listitem')
    expect(cards.map((card) => within(card).getByRole('checkbox').getAttribute('aria-label'))).toEqual([
      'Select cloud.inf.nz',
      'Select home.inf.nz',
      'Select shop.biz.ee',
    ])
    const home = within(cards[1])
    expect(home.getByText('Reserved')).toBeInTheDocument()
    expect(home.getByText('$600.00')).toBeInTheDocument()
    expect(within(cards[0]).getByText('Featured')).toBeInTheDocument()
    expect(within(cards[0]).getByText('Technology')).toBeInTheDocument()

    // Selecting a card selects the name, as the table's box does.
    await events.click(home.getByRole('checkbox', { name: 'Select home.inf.nz' }))
    expect(panel.getByText('1 selected')).toBeInTheDocument()
    expect(table(panel).getByRole('checkbox', { name: 'Select home.inf.nz' })).toBeChecked()

    await events.click(home.getByRole('button', { name: 'Edit home.inf.nz' }))
    expect(await screen.findByRole('dialog', { name: 'Edit Premium Domain' })).toBeInTheDocument()
  })

  it('exports the shown names as a dated CSV', async () => {
    servePremium()
    const blobs: Blob[] = []
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob)
      return 'blob:premium'
    })
    URL.revokeObjectURL = vi.fn()
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toMatch(/^premium-domains-\d{4}-\d{2}-\d{2}\.csv$/)
    })
    const { panel, events } = await openTab()
    await events.click(panel.getByRole('button', { name: 'Export CSV' }))
    expect(click).toHaveBeenCalledOnce()
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader()
      reader.onload = () => resolve(String(reader.result))
      reader.readAsText(blobs[0])
    })
    const lines = text.trimEnd().split('\r\n')
    expect(lines[0]).toBe('ID,Name,Extension,Price,Status,Discount,Valid Until,Featured,Category,Description,Keywords')
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['cloud', 'home', 'shop'])
  })

  it('validates the add dialog and adds a name with the form defaults', async () => {
    const state = servePremium()
    const { panel, events } = await openTab()
    await events.click(panel.getAllByRole('button', { name: 'Add Premium Domain' })[0])
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Premium Domain' }))
    await events.click(dialog.getByRole('button', { name: 'Add Domain' }))
    expect(await dialog.findByText('Domain name is required')).toBeInTheDocument()

    await events.type(dialog.getByLabelText('Domain name'), 'rocket')
    await events.click(dialog.getByRole('tab', { name: 'Pricing' }))
    expect(dialog.getByLabelText('Price (USD per year)')).toHaveValue(50)
    expect(dialog.getByLabelText('Discount valid until')).toHaveAttribute('min', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/))
    await events.clear(dialog.getByLabelText('Price (USD per year)'))
    await events.type(dialog.getByLabelText('Price (USD per year)'), String(rules.premium.minPrice - 1))
    await events.click(dialog.getByRole('button', { name: 'Add Domain' }))
    expect(
      await dialog.findByText(`Premium domain price must be at least ${rules.premium.minPrice}`),
    ).toBeInTheDocument()
    await events.clear(dialog.getByLabelText('Price (USD per year)'))
    await events.type(dialog.getByLabelText('Price (USD per year)'), '120')
    await events.clear(dialog.getByLabelText('Discount (%)'))
    await events.type(dialog.getByLabelText('Discount (%)'), '150')
    await events.click(dialog.getByRole('button', { name: 'Add Domain' }))
    expect(await dialog.findByText('Discount must be a whole number between 0 and 100')).toBeInTheDocument()
    await events.clear(dialog.getByLabelText('Discount (%)'))
    await events.type(dialog.getByLabelText('Discount (%)'), '10')
    await events.click(dialog.getByRole('tab', { name: 'Marketing' }))
    await events.type(dialog.getByLabelText('Keywords'), 'space, launch ,')
    await events.click(dialog.getByRole('button', { name: 'Add Domain' }))

    expect(await screen.findByText('Premium domain added successfully')).toBeInTheDocument()
    expect(state.posts).toEqual([
      {
        name: 'rocket',
        extension: '.inf.nz',
        price: 120,
        isAvailable: true,
        discountPercentage: 10,
        featured: false,
        description: '',
        category: 'general',
        keywords: ['space', 'launch'],
      },
    ])
    expect(await panel.findByText('4 domains found')).toBeInTheDocument()
  })

  it('shows the server message when adding fails', async () => {
    servePremium()
    server.use(
      http.post('/api/admin/premium-domains', () =>
        HttpResponse.json({ success: false, error: 'Premium domain cloud.inf.nz already exists' }, { status: 409 }),
      ),
    )
    const { panel, events } = await openTab()
    await events.click(panel.getAllByRole('button', { name: 'Add Premium Domain' })[0])
    const dialog = within(await screen.findByRole('dialog', { name: 'Add Premium Domain' }))
    await events.type(dialog.getByLabelText('Domain name'), 'cloud')
    await events.click(dialog.getByRole('button', { name: 'Add Domain' }))
    expect(await screen.findByText('Premium domain cloud.inf.nz already exists')).toBeInTheDocument()
  })
})
