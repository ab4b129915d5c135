// The API reference (/docs, /docs/v1): Redoc, served from the binary, in
// Chromium against a real server. The sidebar starts with the registrar API,
// an operation opens from it, /docs/v1 holds the registrar API alone, the
// page asks nothing of another origin and logs no error, and at 375 px the
// sidebar is behind the mobile menu's button.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

/** Console errors, page errors and requests to other origins, or that fail. */
function watch(page) {
  const problems = []
  const origin = new URL(app.baseURL).origin
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error}`))
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.protocol !== 'blob:' && url.protocol !== 'data:' && url.origin !== origin) {
      problems.push(`request to another origin: ${request.url()}`)
    }
  })
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`))
  return problems
}

/** The sidebar's entries of operations: their Redoc ids. */
async function operationIds(page) {
  return page
    .locator('.menu-content li[data-item-id*="/operation/"]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-item-id')))
}

/** Whether the element's top is within the viewport. */
async function inView(page, locator) {
  const box = await locator.boundingBox()
  const { height } = page.viewportSize()
  return box !== null && box.y >= -1 && box.y < height
}

const check = 'tag/Registrar-API/operation/v1-domains-check'

// Redoc renders the whole document at once: the first render of /docs's 140
// paths takes seconds on a busy machine.
const rendered = { timeout: 60_000 }

describe('the API reference', () => {
  test('/docs starts with the registrar API; an operation opens from the sidebar', async () => {
    const page = await app.newPage()
    const problems = watch(page)
    await page.goto('/docs')
    assert.equal(await page.title(), 'API Reference · Nameport')
    const sidebar = page.locator('.menu-content')
    const groups = sidebar.locator('li[data-item-id^="group/"]')
    await groups.first().waitFor(rendered)
    assert.deepEqual(await groups.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label'))), [
      'Registrar API (/v1)',
      'Web app API (/api)',
    ])
    assert.deepEqual(await page.getByRole('heading', { level: 2 }).first().textContent(), 'Registrar API')
    await page.getByText('Nameport has two HTTP APIs, both in this document').waitFor()

    await sidebar.getByRole('menuitem', { name: 'Registrar API', exact: true }).locator('label').first().click()
    const entry = sidebar.locator(`li[data-item-id="${check}"]`)
    await entry.click()
    await page.waitForURL((url) => url.hash === `#${check}`)
    const operation = page.locator(`[id="${check}"]`)
    await operation.getByRole('heading', { name: "Check a domain's availability and price" }).waitFor()
    await page.waitForFunction((id) => {
      const top = document.getElementById(id)?.getBoundingClientRect().top
      return top !== undefined && top >= -1 && top < 100
    }, check)
    assert.ok(await inView(page, operation), 'the operation is scrolled to')
    await operation.getByText('/v1/domains/check', { exact: true }).first().waitFor()

    const ids = await operationIds(page)
    assert.ok(ids.some((id) => id.includes('/operation/admin-')), 'the whole API has the admin operations too')
    assert.deepEqual(problems, [])
    await page.screenshot({ path: 'e2e/screenshots/docs-1280.png' })
    await page.context().close()
  })

  test('/docs/v1 is the registrar API alone', async () => {
    const page = await app.newPage()
    const problems = watch(page)
    const documentLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/openapi.json')
    await page.goto('/docs/v1')
    const document = await (await documentLoaded).json()
    assert.equal(await page.title(), 'Registrar API Reference · Nameport')
    await page.locator('.menu-content li[data-item-id="tag/Registrar-API"]').waitFor(rendered)
    await page.getByRole('heading', { name: 'Nameport Registrar API', level: 1 }).waitFor()

    const ids = await operationIds(page)
    const inDocument = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId))
    assert.equal(ids.length, inDocument.length)
    assert.ok(ids.length > 30)
    for (const id of ids) assert.match(id, /^tag\/Registrar-API\/operation\/v1-/)
    assert.equal(await page.getByText('/api/admin', { exact: false }).count(), 0, 'no /api/admin operation')
    assert.deepEqual(problems, [])
    await page.context().close()
  })

  test('at 375 px the sidebar opens from the menu button', async () => {
    const page = await app.newPage()
    const problems = watch(page)
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/docs')
    const sidebar = page.locator('.menu-content')
    await page.getByText('Nameport has two HTTP APIs, both in this document').waitFor(rendered)
    await sidebar.waitFor({ state: 'hidden' })
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= 375),
      'nothing is wider than the screen',
    )
    await page.screenshot({ path: 'e2e/screenshots/docs-375.png' })

    const menu = page.getByRole('button', { name: 'Menu' })
    await menu.click()
    await sidebar.waitFor({ state: 'visible' })
    await sidebar.locator('li[data-item-id^="group/"]').first().waitFor()
    await page.screenshot({ path: 'e2e/screenshots/docs-375-menu.png' })
    await sidebar.getByRole('menuitem', { name: 'Registrar API', exact: true }).locator('label').first().click()
    await sidebar.locator(`li[data-item-id="${check}"]`).click()
    await sidebar.waitFor({ state: 'hidden' })
    await page.waitForURL((url) => url.hash === `#${check}`)
    await page.waitForFunction((id) => {
      const top = document.getElementById(id)?.getBoundingClientRect().top
      return top !== undefined && top >= -1 && top < 100
    }, check)
    assert.deepEqual(problems, [])
    await page.context().close()
  })
})
