// The admin dashboard's Jobs tab, in Chromium against a real server: it
// explains the background jobs and takes an admin to River's own UI, which
// refuses everyone else.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function login(page, username) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

describe('Jobs tab', () => {
  test('an admin reaches River UI from the tab', async () => {
    const page = await app.newPage()
    await login(page, 'demo-admin')
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Jobs' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Jobs' })
    await panel.getByRole('heading', { name: 'Background Jobs' }).waitFor()
    await panel.getByText('registration.renew', { exact: true }).waitFor()

    await panel.getByRole('link', { name: 'Open River UI' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/admin/river'))
    // River UI's own app lists the periodic clean-ups the workers ran at start.
    await page.goto('/admin/river/jobs?state=completed')
    await page.getByText('account.purge_sessions').first().waitFor()
    await page.context().close()
  })

  test('River UI refuses a visitor and a non-admin', async () => {
    assert.equal((await fetch(`${app.baseURL}/admin/river/`, { redirect: 'manual' })).status, 401)
    const page = await app.newPage()
    await login(page, 'demo')
    const res = await page.request.get('/admin/river/', { maxRedirects: 0 })
    assert.equal(res.status(), 403)
    const api = await page.request.get('/admin/river/api/jobs?state=completed')
    assert.equal(api.status(), 403)
    await page.context().close()
  })
})
