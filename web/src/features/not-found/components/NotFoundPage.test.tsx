import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'

describe('not-found page', () => {
  it('answers any unknown path with the spec texts and links', async () => {
    renderApp('/no/such/page', { user: null })
    expect(await screen.findByRole('heading', { name: "This domain doesn't exist" })).toBeInTheDocument()
    expect(screen.getByText('404 Not Found')).toBeInTheDocument()
    expect(screen.getByText(/may have been removed, renamed, or never existed/)).toBeInTheDocument()
    expect(screen.getByText('.inf.nz')).toBeInTheDocument()
    expect(screen.getByText('.biz.ee')).toBeInTheDocument()
    expect(screen.getByText('.orgn.uk')).toBeInTheDocument()
    const main = screen.getByRole('main')
    expect(screen.getAllByRole('link', { name: 'Home' }).find((link) => main.contains(link))).toHaveAttribute(
      'href',
      '/',
    )
    expect(screen.getByRole('link', { name: 'Manage Domains' })).toHaveAttribute('href', '/domain-management')
    expect(screen.getByRole('link', { name: 'Search Domains' })).toHaveAttribute('href', '/')
    expect(document.title).toBe('404 Not Found · Nameport')
  })
})
