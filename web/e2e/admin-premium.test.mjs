// The admin dashboard's Premium Domains tab, in Chromium against a real
// server with the demo catalogue: add a name, filter, sort, switch to the
// grid, feature two names at once and export the CSV.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

async function openPremiumTab(page) {
  await page.goto('/admin-dashboard')
  const panel = page.getByRole('tabpanel', { name: 'Premium Domains' })
  // The table, or on a phone its cards.
  await panel
    .getByRole('table', { name: 'Premium domains' })
    .or(panel.getByRole('list', { name: 'Premium domains' }))
    .waitFor()
  return panel
}

/** The names in the table, in order. */
async function tableNames(panel) {
  const cells = await panel.getByRole('table', { name: 'Premium domains' }).getByRole('rowheader').allTextContents()
  return cells.map((text) => text.match(/^[a-z0-9-]+\.[a-z]+\.[a-z]+/)[0])
}

describe('Premium Domains tab', () => {
  test('an admin adds, filters, sorts, views as grid, bulk-features and exports', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openPremiumTab(page)

    // The demo catalogue has 13 names, one of them reserved; name ascending by default.
    await panel.getByText('13 domains found').waitFor()
    const initial = await tableNames(panel)
    assert.deepEqual(initial, [...initial].sort())
    assert.ok(initial.includes('home.inf.nz'), 'the reserved name is listed for the admin')

    // Add a premium name through the three tabs of the dialog.
    await panel.getByRole('button', { name: 'Add Premium Domain' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Add Premium Domain' })
    await dialog.getByLabel('Domain name').fill('rocketfuel')
    await dialog.getByLabel('Category').selectOption('technology')
    await dialog.getByRole('tab', { name: 'Pricing' }).click()
    await dialog.getByLabel('Price (USD per year)').fill('75')
    await dialog.getByRole('tab', { name: 'Marketing' }).click()
    await dialog.getByLabel('Keywords').fill('space, launch, rockets')
    await dialog.getByRole('button', { name: 'Add Domain' }).click()
    await page.getByText('Premium domain added successfully', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await panel.getByText('14 domains found').waitFor()

    // Filter: technology names only (cloud, ai and the new one).
    await panel.getByRole('button', { name: 'Filters' }).click()
    const filters = page.getByRole('dialog', { name: 'Filters' })
    await filters.getByLabel('Category').selectOption('technology')
    await panel.getByText('3 domains found').waitFor()
    assert.deepEqual(await tableNames(panel), ['ai.inf.nz', 'cloud.inf.nz', 'rocketfuel.inf.nz'])

    // Sort by price, then flip it.
    await page.keyboard.press('Escape')
    await panel.getByRole('button', { name: /^Sort:/ }).click()
    const sort = page.getByRole('dialog', { name: 'Sort' })
    await sort.getByRole('button', { name: /^Price/ }).click()
    assert.deepEqual(await tableNames(panel), ['rocketfuel.inf.nz', 'cloud.inf.nz', 'ai.inf.nz'])
    await sort.getByRole('button', { name: /^Price/ }).click()
    assert.deepEqual(await tableNames(panel), ['ai.inf.nz', 'cloud.inf.nz', 'rocketfuel.inf.nz'])
    await page.keyboard.press('Escape')

    // Grid view: the new name's card shows two keywords and "+1 more".
    await panel.getByRole('button', { name: 'Grid view' }).click()
    const card = panel.getByRole('listitem', { name: 'rocketfuel.inf.nz' })
    await card.getByText('+1 more').waitFor()
    await card.getByText('space', { exact: true }).waitFor()

    // Back to all names; bulk-feature two names that are not featured.
    await panel.getByRole('button', { name: 'Filters' }).click()
    await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Reset' }).click()
    await page.keyboard.press('Escape')
    await panel.getByText('14 domains found').waitFor()
    await panel.getByRole('checkbox', { name: 'Select travel.orgn.uk' }).check()
    await panel.getByRole('checkbox', { name: 'Select learn.orgn.uk' }).check()
    await panel.getByText('2 selected').waitFor()
    await panel
      .getByRole('group', { name: 'Bulk actions' })
      .getByRole('button', { name: 'Feature', exact: true })
      .click()
    await page.getByText('Bulk action completed successfully', { exact: true }).waitFor()
    await panel.getByRole('button', { name: 'Unfeature travel.orgn.uk' }).waitFor()
    await panel.getByRole('button', { name: 'Unfeature learn.orgn.uk' }).waitFor()

    // The server agrees.
    const listed = await page.evaluate(async () => (await (await fetch('/api/premium-domains')).json()).data)
    for (const name of ['travel', 'learn']) {
      assert.equal(listed.find((d) => d.name === name).featured, true, `${name} is featured`)
    }

    // The audit log says what the bulk action did, name by name.
    await page.getByRole('tab', { name: 'Users' }).click()
    const entry = page
      .getByRole('tabpanel', { name: 'Users' })
      .getByRole('list', { name: 'Audit log' })
      .getByRole('listitem')
      .filter({ hasText: 'featured 2 domains' })
    await entry.getByText('changed premium domains').waitFor()
    assert.deepEqual((await entry.getByRole('term').allTextContents()).sort(), [
      'learn.orgn.uk › featured',
      'travel.orgn.uk › featured',
    ])
    assert.deepEqual(await entry.getByRole('definition').allTextContents(), ['off→on', 'off→on'])
    await page.getByRole('tab', { name: 'Premium Domains' }).click()

    // Export CSV: a dated file whose first row is the spec's columns.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Export CSV' }).click(),
    ])
    assert.match(download.suggestedFilename(), /^premium-domains-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = await readFile(await download.path(), 'utf8')
    const lines = csv.trimEnd().split('\r\n')
    assert.equal(lines[0], 'ID,Name,Extension,Price,Status,Discount,Valid Until,Featured,Category,Description,Keywords')
    assert.equal(lines.length, 15)
    await page.context().close()
  })

  test('with nothing selected a bulk action warns and changes nothing', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const panel = await openPremiumTab(page)
    await panel.getByRole('group', { name: 'Bulk actions' }).getByRole('button', { name: 'Make Unavailable' }).click()
    await page.getByText('Please select at least one domain first', { exact: true }).waitFor()
    await page.context().close()
  })

  test('on a 375 px phone the page does not scroll sideways', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    const panel = await openPremiumTab(page)
    const fits = async (view) => {
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
      }))
      assert.ok(widths.page <= widths.viewport, `${view}: page is ${widths.page}px wide at ${widths.viewport}px`)
      // No box in the tab scrolls sideways (a table too wide for its card).
      const wide = await panel.evaluate(
        (root) =>
          [...root.querySelectorAll('*')].filter(
            (el) => el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX),
          ).length,
      )
      assert.equal(wide, 0, `${view}: a box in the tab scrolls sideways`)
    }

    // The table view is a card per name on a phone, each with its select box and actions.
    const cards = panel.getByRole('list', { name: 'Premium domains' }).getByRole('listitem')
    await cards.first().waitFor()
    assert.equal(await panel.getByRole('table', { name: 'Premium domains' }).count(), 0, 'the table is hidden')
    await cards.first().getByRole('checkbox').check()
    await panel.getByText('1 selected', { exact: true }).waitFor()
    await cards
      .first()
      .getByRole('button', { name: /^Edit / })
      .waitFor()
    await fits('table view')

    await panel.getByRole('button', { name: 'Grid view' }).click()
    await panel.getByRole('listitem', { name: 'cloud.inf.nz' }).waitFor()
    await fits('grid view')
    await page.context().close()
  })
})
