import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, server, sessionAs } from '@/test/server'

async function header() {
  return within(await screen.findByRole('banner'))
}

describe('site header', () => {
  it('links a registrar to the registrar dashboard', async () => {
    renderApp('/', { user: registrar })
    const nav = await header()
    const dashboard = (await nav.findAllByRole('link', { name: 'Dashboard' }))[0]
    expect(dashboard).toHaveAttribute('href', '/registrar-dashboard')
    expect(nav.getAllByRole('link', { name: 'Log out' })[0]).toHaveAttribute('href', '/logout')
    expect(nav.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument()
  })

  it('links an end user to /dashboard, and no admin area', async () => {
    renderApp('/', { user: endUser })
    const nav = await header()
    expect((await nav.findAllByRole('link', { name: 'Dashboard' }))[0]).toHaveAttribute('href', '/dashboard')
    expect(nav.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument()
  })

  it('links an admin to the admin area, on phones too', async () => {
    const { events } = renderApp('/', { user: { ...endUser, userType: 'admin' } })
    const nav = await header()
    expect((await nav.findAllByRole('link', { name: 'Admin' }))[0]).toHaveAttribute('href', '/admin-dashboard')
    await events.click(nav.getByRole('button', { name: 'Open menu' }))
    const menu = within(screen.getByRole('navigation', { name: 'Mobile' }))
    expect(menu.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin-dashboard')
  })

  it('offers Log in and Register to a visitor, once the app knows there is no session', async () => {
    renderApp('/')
    const nav = await header()
    expect(await nav.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
    expect(nav.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register')
  })

  it('picks up the session the app loads at start', async () => {
    server.use(sessionAs(() => endUser))
    renderApp('/')
    const nav = await header()
    expect(await nav.findByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
  })

  it('highlights the current section and flips the help toggle', async () => {
    const { events } = renderApp('/#pricing', { user: null })
    const nav = await header()
    expect(await nav.findByRole('link', { name: 'Pricing' })).toHaveAttribute('aria-current', 'page')
    expect(nav.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current')

    const toggle = nav.getByRole('button', { name: 'Disable AI help tooltips' })
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await events.click(toggle)
    expect(nav.getByRole('button', { name: 'Enable AI help tooltips' })).toHaveAttribute('aria-pressed', 'false')
  })

  it('opens the mobile menu with the help toggle and auth buttons', async () => {
    const { events } = renderApp('/', { user: null })
    const nav = await header()
    await events.click(await nav.findByRole('button', { name: 'Open menu' }))
    const menu = within(screen.getByRole('navigation', { name: 'Mobile' }))
    expect(menu.getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/#contact')
    await events.click(menu.getByRole('button', { name: 'Disable AI Help' }))
    expect(menu.getByRole('button', { name: 'Enable AI Help' })).toBeInTheDocument()
    expect(menu.getByRole('link', { name: 'Register' })).toBeInTheDocument()
  })
})
