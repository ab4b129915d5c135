// A registrar makes a read-only key on the API Access tab, uses it with the
// real nameportctl (a read it may make and a check it may not), then finds
// both requests on the Request Logs tab, filters them and sees the export
// link follow the filters. Chromium against a real server.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signUp, uniqueName, useApp } from './harness.mjs'

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const nameportctl = resolve(webDir, process.env.NAMEPORTCTL_BIN ?? '../bin/nameportctl')

const app = useApp({ before, after })

/** Runs nameportctl with the server and key; resolves with its exit code and output. */
function ctl(apiKey, ...args) {
  return new Promise((done) => {
    execFile(
      nameportctl,
      ['--url', app.baseURL, '--api-key', apiKey, ...args],
      { env: { ...process.env, HOME: '/nonexistent' }, timeout: 30_000 },
      (error, stdout, stderr) => done({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('request logs', () => {
  test('a scoped key used with nameportctl shows up in the Request Logs tab', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('logreg'), { type: 'registrar' })
    await page.goto('/registrar-dashboard?tab=api')
    await page.getByRole('table', { name: 'API keys' }).waitFor()

    // A key that may only read (Read is checked by default).
    await page.getByRole('button', { name: 'Create key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create API key' })
    await dialog.getByLabel('Name').fill('CLI reader')
    await dialog.getByRole('button', { name: 'Create key' }).click()
    const shown = page.getByRole('dialog', { name: 'CLI reader is ready' })
    const secret = await shown.getByLabel('New API key').inputValue()
    assert.match(secret, /^np_/)
    await shown
      .getByRole('button', { name: /Done|Close/ })
      .first()
      .click()

    // The real CLI: a read it may make, a check it may not.
    const balance = await ctl(secret, 'wallet', 'balance')
    assert.equal(balance.code, 0, balance.stderr)
    const check = await ctl(secret, 'domain', 'check', 'logged-name.inf.nz')
    assert.equal(check.code, 1, check.stdout)
    assert.match(check.stderr, /lacks the register scope/)

    await page.goto('/registrar-dashboard?tab=logs')
    const table = page.getByRole('table', { name: 'Request logs' })
    // Entries are written a moment after their requests: refresh until
    // both are there.
    const refused = table.getByRole('row').filter({ hasText: '/v1/domains/check' })
    const read = table.getByRole('row').filter({ hasText: '/v1/wallet' })
    for (let attempt = 0; ; attempt++) {
      try {
        await refused.waitFor({ timeout: 1_000 })
        await read.waitFor({ timeout: 1_000 })
        break
      } catch (error) {
        if (attempt >= 20) throw error
        await page.getByRole('button', { name: 'Refresh' }).click()
      }
    }
    await refused.getByText('403', { exact: true }).waitFor()
    await refused.getByText('CLI reader').waitFor()
    await refused.getByText('POST').waitFor()
    await read.getByText('200', { exact: true }).waitFor()
    await read.getByText('GET').waitFor()

    // Filters: 4xx keeps the refusal only, and the export follows.
    await page.getByLabel('Status').selectOption('4xx')
    await read.waitFor({ state: 'detached' })
    await refused.waitFor()
    await page.getByLabel('API key').selectOption({ label: 'CLI reader' })
    await refused.waitFor()
    const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')
    const url = new URL(href, app.baseURL)
    assert.equal(url.pathname, '/api/registrar/logs.csv')
    assert.equal(url.searchParams.get('status'), '4xx')

    // The export itself, with the page's session.
    const csv = await page.evaluate(async (link) => (await fetch(link)).text(), href)
    const lines = csv.trim().split('\n')
    assert.equal(lines[0], 'time,key_id,key,method,path,status,latency_ms,idempotency_key,request_id')
    assert.equal(lines.length, 2, csv)
    assert.match(lines[1], /,CLI reader,POST,\/v1\/domains\/check,403,/)

    if (process.env.REQUEST_LOG_SHOTS) {
      await page.getByLabel('Status').selectOption('')
      await read.waitFor()
      await page.screenshot({ path: `${process.env.REQUEST_LOG_SHOTS}/request-logs-1280.png`, fullPage: true })
      await page.setViewportSize({ width: 375, height: 800 })
      await page.screenshot({ path: `${process.env.REQUEST_LOG_SHOTS}/request-logs-375.png`, fullPage: true })
    }
    await page.context().close()
  })
})
