// A registrar's Reports tab, in Chromium against a real server: after a
// deposit, two registrations and a renewal, the tab draws its charts (SVG),
// shows the server's figures and downloads each report as CSV with the
// right rows. REPORTS_SHOTS=DIR also saves screenshots at 1280 and 375 px.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deposit, registerName, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

/** Waits until the chart of the report card titled title has drawn bars of some height; returns how many. */
async function barsDrawn(page, title) {
  const region = page.getByRole('region', { name: title })
  await region.locator('svg.recharts-surface').first().waitFor()
  await page.waitForFunction(
    (name) =>
      [...document.querySelectorAll(`[aria-label="${name}"] .recharts-bar-rectangle rect`)].some(
        (bar) => bar.getBoundingClientRect().height > 0,
      ),
    title,
  )
  return region
    .locator('.recharts-bar-rectangle rect')
    .evaluateAll((bars) => bars.filter((bar) => bar.getBoundingClientRect().height > 0).length)
}

describe('Reports tab', () => {
  test('a registrar sees its charts and figures and downloads a CSV', async () => {
    const page = await app.newPage()
    const username = uniqueName('reports')
    await signUp(page, username, { type: 'registrar' })

    // A new registrar: empty states, no charts yet.
    await page.goto('/registrar-dashboard?tab=reports')
    await page.getByText('No registrations or renewals in the last 12 months yet.').waitFor()
    await page.getByText('Nothing due for renewal in the next 90 days.').waitFor()

    await deposit(page, 100)
    const first = `${username}-one`
    await registerName(page, first)
    const firstId = page.url().split('/').pop()
    await registerName(page, `${username}-two`)
    // A renewal, through the web app's own API with this session.
    const renewed = await page.request.post(`/api/domains/${firstId}/renew`)
    assert.equal(renewed.status(), 200, await renewed.text())

    await page.goto('/registrar-dashboard?tab=reports')
    const figures = page.getByRole('region', { name: 'Key figures' })
    await figures.waitFor()
    const metric = (title) => figures.getByText(title, { exact: true }).locator('xpath=following-sibling::*[1]')
    assert.equal(await metric('Registrations').textContent(), '2')
    assert.equal(await metric('Renewals').textContent(), '1')

    // The charts are drawn: bars for the months, a donut for the extensions.
    // This month: a registrations bar and a renewals bar, side by side and stacked.
    assert.equal(await barsDrawn(page, 'Registrations and renewals per month'), 2)
    assert.equal(await barsDrawn(page, 'Spend per month'), 2)
    const extensions = page.getByRole('region', { name: 'Domains by extension' })
    await extensions.locator('svg .recharts-pie-sector path').first().waitFor()
    await extensions.getByText('2 domains', { exact: true }).first().waitFor()

    // The server's figures: what the wallet paid is what it lost.
    const report = await (await page.request.get('/api/registrar/reports')).json()
    const spent = report.data.months.reduce((n, m) => n + m.totalSpend, 0)
    assert.equal(Math.round((100 - report.data.balance) * 100), Math.round(spent * 100))
    await metric('Spent')
      .getByText(`$${spent.toFixed(2)}`)
      .waitFor()
    const windows = page.getByRole('list', { name: 'Renewal windows' }).getByRole('listitem')
    assert.equal(await windows.count(), 3)
    await windows.first().getByText('Nothing due').waitFor()
    const usage = page.getByRole('region', { name: 'Registrations this month' })
    await usage.getByText('2 of 100 this month', { exact: false }).waitFor()

    // Export CSV downloads the report with its rows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV: Registrations and renewals per month' }).click(),
    ])
    assert.match(download.suggestedFilename(), /^nameport-activity-\d{4}-\d{2}-\d{2}\.csv$/)
    const rows = (await readFile(await download.path(), 'utf8')).trim().split('\n')
    assert.equal(rows[0], 'month,registrations,renewals')
    assert.equal(rows.length, 13)
    const month = new Date().toISOString().slice(0, 7)
    assert.equal(rows[12], `${month},2,1`)

    const res = await page.request.get('/api/registrar/reports/extensions.csv')
    assert.equal(res.status(), 200)
    assert.match(res.headers()['content-type'], /^text\/csv/)
    assert.match(res.headers()['content-disposition'], /^attachment; filename="nameport-extensions-/)
    assert.equal(await res.text(), 'extension,domains,active,expired\n.inf.nz,2,2,0\n')

    if (process.env.REPORTS_SHOTS) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 740 : 800 })
        await page.goto('/registrar-dashboard?tab=reports')
        await barsDrawn(page, 'Spend per month')
        await page.evaluate(() => window.scrollTo(0, 0))
        await page.screenshot({ path: join(process.env.REPORTS_SHOTS, `reports-${width}.png`), fullPage: true })
        // Each card alone too, legible at phone width.
        const cards = page.getByRole('tabpanel').getByRole('region')
        for (let i = 0; i < (await cards.count()); i++) {
          await cards.nth(i).screenshot({ path: join(process.env.REPORTS_SHOTS, `reports-${width}-${i}.png`) })
        }
      }
    }
    await page.context().close()
  })
})
