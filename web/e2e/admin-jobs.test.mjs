// The admin dashboard's Jobs tab, in Chromium against a real server: the
// periodic clean-ups that run at start are listed as completed, the state
// chips filter, and on a phone the table scrolls inside its card.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

async function openJobsTab(page) {
  await page.goto('/admin-dashboard')
  await page.getByRole('tab', { name: 'Jobs' }).click()
  const panel = page.getByRole('tabpanel', { name: 'Jobs' })
  await panel.getByRole('heading', { name: 'Background Jobs' }).waitFor()
  return panel
}

/** The table row of the first job of a kind. */
function rowOf(panel, kind) {
  return panel.getByRole('table', { name: 'Background jobs' }).getByRole('row').filter({ hasText: kind }).first()
}

describe('Jobs tab', () => {
  test('an admin sees the periodic jobs the workers completed', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openJobsTab(page)

    // Both clean-ups run when the server starts; the list refreshes by itself.
    for (const kind of ['account.purge_sessions', 'idempotency.purge']) {
      const row = rowOf(panel, kind)
      await row.getByText('Completed', { exact: true }).waitFor()
      await row.getByText('1 / ', { exact: false }).waitFor()
      assert.equal(await row.getByRole('button').count(), 0, 'a completed job offers no actions')
    }
    const chips = panel.getByRole('group', { name: 'Filter jobs by state' })
    const completedChip = chips.getByRole('button', { name: /^Completed \(\d+\)$/ })
    const completed = Number((await completedChip.getAttribute('aria-label')).match(/\((\d+)\)/)[1])
    assert.ok(completed >= 2, `completed count ${completed}`)

    // Filtering by a state with no jobs says so.
    await chips.getByRole('button', { name: 'Discarded (0)' }).click()
    await panel.getByText('No discarded jobs', { exact: true }).waitFor()
    await completedChip.click()
    await rowOf(panel, 'idempotency.purge').waitFor()
    assert.equal(await completedChip.getAttribute('aria-pressed'), 'true')
    await page.context().close()
  })

  test('on a 375 px phone the table scrolls inside the card, not the page', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    const panel = await openJobsTab(page)
    await rowOf(panel, 'account.purge_sessions').waitFor()
    const widths = await page.evaluate(() => {
      const table = document.querySelector('table[aria-label="Background jobs"]')
      return {
        page: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
        scroller: table.parentElement.clientWidth,
        table: table.scrollWidth,
      }
    })
    assert.ok(widths.page <= widths.viewport, `page is ${widths.page}px wide at ${widths.viewport}px`)
    assert.ok(widths.table > widths.scroller, 'the table is wider than its scroller, which scrolls')
    await page.context().close()
  })

  test('the jobs API refuses a visitor and a non-admin', async () => {
    assert.equal((await fetch(`${app.baseURL}/api/admin/jobs`)).status, 401)
    const page = await app.newPage()
    await page.goto('/login')
    await page.getByLabel('Username').fill('demo')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname !== '/login')
    const res = await page.request.get('/api/admin/jobs')
    assert.equal(res.status(), 403)
    await page.context().close()
  })
})
