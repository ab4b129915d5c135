import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { rules, searchParamOf, server } from '@/test/server'

describe('landing page', () => {
  it('links the partnership tiers to registration with type and tier', async () => {
    renderApp('/', { user: null })
    const pricing = within(await screen.findByRole('region', { name: 'Registrar partnership' }))
    expect(pricing.getByRole('link', { name: 'Register Now' })).toHaveAttribute('href', '/register')
    // The tiers are the server's (GET /api/rules).
    const apply = await pricing.findAllByRole('link', { name: 'Apply Now' })
    expect(apply[0]).toHaveAttribute('href', '/register?type=registrar&tier=basic')
    expect(apply[1]).toHaveAttribute('href', '/register?type=registrar&tier=premium')
    expect(pricing.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute(
      'href',
      '/register?type=registrar&tier=enterprise',
    )
    for (const tier of rules.registrarTiers) expect(pricing.getByText(`$${tier.pricePerDomain}`)).toBeInTheDocument()
  })

  it('validates the domain name before searching', async () => {
    const { events } = renderApp('/', { user: null })
    const search = within(await screen.findByRole('search', { name: 'Domain search' }))
    await events.click(search.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('Domain name is required')).toBeInTheDocument()
    await events.type(search.getByLabelText('Domain name'), '-bad-')
    await events.click(search.getByRole('button', { name: 'Search' }))
    expect(
      await screen.findByText(
        'Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.',
      ),
    ).toBeInTheDocument()
  })

  it('drops the last result when the next search fails validation', async () => {
    server.use(
      http.get('/api/domains/check', () =>
        HttpResponse.json({
          success: true,
          data: { domain: 'shop', extension: '.inf.nz', available: true, isPremium: false, price: 8 },
        }),
      ),
    )
    const { events } = renderApp('/', { user: null })
    const search = within(await screen.findByRole('search', { name: 'Domain search' }))
    await events.type(search.getByLabelText('Domain name'), 'shop')
    await events.click(search.getByRole('button', { name: 'Search' }))
    expect(await screen.findByRole('region', { name: 'Search result' })).toHaveTextContent('shop.inf.nz')
    await events.clear(search.getByLabelText('Domain name'))
    await events.type(search.getByLabelText('Domain name'), '-bad-')
    await events.click(search.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText(/Domain name can only contain letters/)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Search result' })).not.toBeInTheDocument()
  })

  it('explains how it works in a dialog that leads to the search field', async () => {
    const { events } = renderApp('/', { user: null })
    await events.click(await screen.findByRole('button', { name: 'Watch How It Works' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'How it works' }))
    expect(dialog.getAllByRole('listitem')).toHaveLength(4)
    expect(dialog.getByRole('link', { name: 'API documentation' })).toHaveAttribute('href', '/docs')
    await events.click(dialog.getByRole('button', { name: 'Search a domain' }))
    await waitFor(() => expect(screen.getByLabelText('Domain name')).toHaveFocus())
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('shows the result card for an available premium name', async () => {
    let asked = ''
    server.use(
      http.get('/api/domains/check', ({ request }) => {
        asked = new URL(request.url).search
        return HttpResponse.json({
          success: true,
          data: { domain: 'acme', extension: '.biz.ee', available: true, isPremium: true, price: 50 },
        })
      }),
    )
    const { events } = renderApp('/', { user: null })
    const search = within(await screen.findByRole('search', { name: 'Domain search' }))
    expect(search.getByLabelText('Extension')).toHaveValue('.inf.nz')
    await events.type(search.getByLabelText('Domain name'), 'acme')
    await events.selectOptions(search.getByLabelText('Extension'), '.biz.ee')
    await events.click(search.getByRole('button', { name: 'Search' }))
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(asked).toBe('?name=acme&extension=.biz.ee')
    expect(result.getByText('acme.biz.ee')).toBeInTheDocument()
    expect(result.getByText('Premium')).toBeInTheDocument()
    expect(result.getByText('$50.00')).toBeInTheDocument()
    expect(searchParamOf(result.getByRole('link', { name: 'Register Now' }))).toBe('/?name=acme&extension=.biz.ee')
  })

  it("offers a disabled 'Not Available' for a taken name", async () => {
    server.use(
      http.get('/api/domains/check', () =>
        HttpResponse.json({
          success: true,
          data: { domain: 'taken', extension: '.inf.nz', available: false, isPremium: false, price: 8 },
        }),
      ),
    )
    const { events } = renderApp('/', { user: null })
    const search = within(await screen.findByRole('search', { name: 'Domain search' }))
    await events.type(search.getByLabelText('Domain name'), 'taken')
    await events.click(search.getByRole('button', { name: 'Search' }))
    const result = within(await screen.findByRole('region', { name: 'Search result' }))
    expect(result.getByRole('button', { name: 'Not Available' })).toBeDisabled()
    expect(result.queryByText('Premium')).not.toBeInTheDocument()
  })

  it("shows the server's error in an 'Error' toast and no result card", async () => {
    server.use(
      http.get('/api/domains/check', () =>
        HttpResponse.json({ success: false, error: 'Extension is not active' }, { status: 422 }),
      ),
    )
    const { events } = renderApp('/', { user: null })
    const search = within(await screen.findByRole('search', { name: 'Domain search' }))
    await events.type(search.getByLabelText('Domain name'), 'acme')
    await events.click(search.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('Extension is not active')).toBeInTheDocument()
    expect(screen.getByText('Error')).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Search result' })).not.toBeInTheDocument()
  })

  it('says so when there are no premium domains', async () => {
    renderApp('/', { user: null })
    expect(await screen.findByText('No premium domains available at the moment')).toBeInTheDocument()
  })
})
