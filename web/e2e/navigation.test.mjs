// Redirects of the guarded pages and the not-found page, in Chromium against
// a real server.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

describe('navigation', () => {
  test('an unknown path shows the not-found page', async () => {
    const page = await app.newPage()
    const response = await page.goto('/no/such/page')
    assert.equal(response.status(), 404) // the app, with the status of a path no page has
    await page.getByRole('heading', { name: "This domain doesn't exist" }).waitFor()
    await page.getByText('404 Not Found').waitFor()
    assert.equal(await page.getByRole('link', { name: 'Manage Domains' }).getAttribute('href'), '/domain-management')
    assert.equal(await page.title(), '404 Not Found · Nameport')
    await page.context().close()
  })

  test('a visitor opening /dashboard lands on /login', async () => {
    const page = await app.newPage()
    await page.goto('/dashboard')
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByRole('heading', { name: 'Log in to Nameport' }).waitFor()
    await page.context().close()
  })

  test('an end user opening /registrar-dashboard lands on /dashboard', async () => {
    const page = await app.newPage()
    const username = uniqueName('nav')
    const password = 'correct-horse-9'
    await page.goto('/register')
    await page.getByLabel('Full name').fill('Navigating User')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Email').fill(`${username}@example.com`)
    await page.getByLabel('Password', { exact: true }).fill(password)
    await page.getByLabel('Confirm password').fill(password)
    await page.getByRole('button', { name: 'Create Account' }).click()
    await page.waitForURL('**/dashboard')

    await page.goto('/registrar-dashboard')
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor()
    await page.context().close()
  })

  test('a logged-in end user opening /admin-dashboard lands on /login', async () => {
    const page = await app.newPage()
    await page.goto('/login')
    await page.getByLabel('Username').fill('demo')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await page.goto('/admin-dashboard')
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByRole('heading', { name: 'Log in to Nameport' }).waitFor()
    await page.context().close()
  })

  test('the landing page sections are reachable from the header', async () => {
    const page = await app.newPage()
    await page.goto('/')
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click()
    await page.waitForURL('**/#pricing')
    await page.getByRole('heading', { name: 'Registrar partnership' }).waitFor()
    assert.equal(
      await page.getByRole('link', { name: 'Contact Sales' }).getAttribute('href'),
      '/register?type=registrar&tier=enterprise',
    )
    await page.context().close()
  })
})
