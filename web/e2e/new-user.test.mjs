// What a new user meets first (issue #26), in Chromium against a real
// `nameport serve --demo`: guest pages without console errors, and a
// guarded page that remembers where the visitor was going.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

/** The console errors and uncaught exceptions of page, as they come. */
function collectErrors(page) {
  const errors = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  return errors
}

describe('a visitor', () => {
  test('meets no console error on the guest pages', async () => {
    const page = await app.newPage()
    const errors = collectErrors(page)
    for (const path of ['/', '/login', '/register', '/premium-domains', '/forgot-password']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    assert.deepEqual(errors, [])
    await page.context().close()
  })

  test('sent from a guarded page to log in, comes back to it', async () => {
    const page = await app.newPage()
    await page.goto('/wallet?tab=deposit')
    await page.waitForURL((url) => url.pathname === '/login')
    assert.equal(new URL(page.url()).searchParams.get('redirect'), '/wallet?tab=deposit')
    await page.getByLabel('Username').fill('demo')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname === '/wallet')
    assert.equal(new URL(page.url()).searchParams.get('tab'), 'deposit')
    await page.context().close()
  })

  test('gets 404 for a path no page has, and the not-found page; pages and deep links are 200', async () => {
    const page = await app.newPage()
    const missing = await page.goto('/no/such/page')
    assert.equal(missing.status(), 404)
    await page.getByRole('heading', { name: "This domain doesn't exist" }).waitFor()
    for (const path of ['/', '/login', '/domain-management/42', '/premium-domains']) {
      assert.equal((await page.goto(path)).status(), 200, path)
    }
    await page.context().close()
  })
})
