// The Domain Forwarding tab, clicked through in Chromium against a real
// server: a forward added for www (301, keeping the path) and listed with a
// pending certificate, the forward role's HTTP server answering with the
// redirect (and the DNS role with its address), a host with an A record of
// its own forwarded only after the dialog named the record and the user
// confirmed, and a forward deleted (the redirect answers 404 again). The
// harness runs the forward role without HTTPS, so certificates stay pending.
import { execFile } from 'node:child_process'
import { request } from 'node:http'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, launchBrowser, registerName, signUp, startServer, uniqueName } from './harness.mjs'

// Not useApp: these tests also need the server's forward and DNS addresses.
let server
let browser
before(async () => {
  server = await startServer()
  browser = await launchBrowser()
})
after(async () => {
  await browser?.close()
  await server?.stop()
})

async function newPage() {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 800 } })
  context.setDefaultTimeout(10_000)
  return context.newPage()
}

/**
 * GETs path from the forward role's HTTP server as a browser visiting host
 * would; resolves with the status and the Location. (fetch may not set the
 * Host header, hence node:http.)
 */
function visit(host, path) {
  const [hostname, port] = server.forwardAddr.split(':')
  return new Promise((resolveVisit, reject) => {
    const req = request({ hostname, port: Number(port), path, headers: { host }, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolveVisit({ status: res.statusCode, location: res.headers.location }))
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * Visits until the answer is `expected`. The API's change reaches the
 * forward role within moments (at most its poll interval), not in the same
 * instant.
 */
async function expectVisit(host, path, expected) {
  const deadline = Date.now() + 15_000
  let answer
  while (Date.now() < deadline) {
    answer = await visit(host, path)
    if (answer.status === expected.status && answer.location === expected.location) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.deepEqual(answer, expected, `http://${host}${path}`)
}

const run = promisify(execFile)

/** The A records the server's DNS role answers for name, as `dig +short` prints them. */
async function digA(name) {
  const [host, port] = server.dnsAddr.split(':')
  const { stdout } = await run('dig', ['+short', '+time=2', '+tries=1', `@${host}`, '-p', port, 'A', name])
  return stdout.trim()
}

/**
 * Asks until the answer is `expected`: a change made through the API is
 * published to the DNS role within milliseconds, but not in the same instant.
 */
async function expectA(name, expected) {
  const deadline = Date.now() + 10_000
  let answer
  while (Date.now() < deadline) {
    answer = await digA(name)
    if (answer === expected) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.equal(answer, expected, `A of ${name}`)
}

describe('domain forwarding', () => {
  test('a forward added, listed, redirecting; a host with its own record asks first; delete stops the redirect', async () => {
    const page = await newPage()
    await signUp(page, uniqueName('dfwduser'))
    await deposit(page, 20)
    const label = uniqueName('e2e-dfwd-')
    const apex = `${label}.inf.nz`
    await registerName(page, label)

    // Before any forward, the forward role knows nothing of the name.
    assert.equal((await visit(`www.${apex}`, '/')).status, 404)

    await page.getByRole('tab', { name: 'Domain Forwarding' }).click()
    await page.waitForURL(/\?tab=domain-forwarding$/)
    const panel = page.getByRole('tabpanel', { name: 'Domain Forwarding' })
    await panel.getByText('No forwards yet', { exact: true }).waitFor()
    await panel.getByText(/^0 of \d+ forwards$/).waitFor()
    await panel.getByText('127.0.0.1', { exact: true }).waitFor()

    // www to https://example.com/ with 301, keeping the path.
    await panel.getByRole('button', { name: 'Add forward' }).click()
    let dialog = page.getByRole('dialog', { name: 'Add forward' })
    await dialog.getByText(`.${apex}`, { exact: true }).waitFor()
    await dialog.getByLabel('Host name').fill('www')
    await dialog.getByLabel('Forward to').fill('https://example.com/')
    await dialog.getByLabel('Redirect type').selectOption('301')
    await dialog.getByRole('checkbox', { name: 'Keep the path' }).check()
    await dialog.getByRole('button', { name: 'Add forward' }).click()
    await page.getByText('Forward added', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })

    const forwards = panel.getByRole('table', { name: 'Domain forwards' })
    const wwwRow = forwards.getByRole('row').filter({ hasText: `www.${apex}` })
    await wwwRow.getByText('https://example.com/', { exact: true }).waitFor()
    await wwwRow.getByText('301 Permanent', { exact: true }).waitFor()
    await wwwRow.getByText('Keeps path', { exact: true }).waitFor()
    await wwwRow.getByText('Pending', { exact: true }).waitFor()
    assert.equal(await wwwRow.getByText('Keeps query', { exact: true }).count(), 0)
    await panel.getByText(/^1 of \d+ forwards$/).waitFor()

    // The redirect, with the request's path kept; and www's address is the forward role's.
    await expectVisit(`www.${apex}`, '/some/path', { status: 301, location: 'https://example.com/some/path' })
    await expectA(`www.${apex}`, '127.0.0.1')

    // A host with an A record of its own.
    await page.getByRole('tab', { name: 'DNS Management' }).click()
    const dns = page.getByRole('tabpanel', { name: 'DNS Management' })
    await dns.getByRole('button', { name: 'Add Record' }).click()
    const recordDialog = page.getByRole('dialog', { name: 'Add DNS record' })
    await recordDialog.getByLabel('Name').fill('blog')
    await recordDialog.getByLabel('Content').fill('203.0.113.7')
    await recordDialog.getByRole('button', { name: 'Save record' }).click()
    await recordDialog.waitFor({ state: 'detached' })
    await expectA(`blog.${apex}`, '203.0.113.7')

    // Forwarding it names the record and waits for a yes.
    await page.getByRole('tab', { name: 'Domain Forwarding' }).click()
    await panel.getByRole('button', { name: 'Add forward' }).click()
    dialog = page.getByRole('dialog', { name: 'Add forward' })
    await dialog.getByLabel('Host name').fill('blog')
    await dialog.getByLabel('Forward to').fill('https://example.org/news')
    await dialog.getByRole('button', { name: 'Add forward' }).click()
    const notice = dialog.getByRole('alert')
    await notice.getByText(`Forwarding blog.${apex} replaces its records:`, { exact: true }).waitFor()
    assert.deepEqual(
      await notice.getByRole('list', { name: 'Records to replace' }).getByRole('listitem').allTextContents(),
      ['A 203.0.113.7'],
    )
    await expectA(`blog.${apex}`, '203.0.113.7')
    await dialog.getByRole('button', { name: 'Replace records and save' }).click()
    await dialog.waitFor({ state: 'detached' })
    const blogRow = forwards.getByRole('row').filter({ hasText: `blog.${apex}` })
    await blogRow.getByText('302 Temporary', { exact: true }).waitFor()
    await panel.getByText(/^2 of \d+ forwards$/).waitFor()
    // 302 by default; without "keep the path" every path goes to the target itself.
    await expectVisit(`blog.${apex}`, '/old/post', { status: 302, location: 'https://example.org/news' })
    await expectA(`blog.${apex}`, '127.0.0.1')

    // Delete www, after the confirmation: the redirect answers 404, blog's goes on.
    await wwwRow.getByRole('button', { name: `Delete forward www.${apex}` }).click()
    const confirm = page.getByRole('dialog', { name: `Stop forwarding www.${apex}?` })
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Forward deleted', { exact: true }).waitFor()
    await wwwRow.waitFor({ state: 'detached' })
    await panel.getByText(/^1 of \d+ forwards$/).waitFor()
    await expectVisit(`www.${apex}`, '/some/path', { status: 404, location: undefined })
    await expectA(`www.${apex}`, '')
    assert.equal((await visit(`blog.${apex}`, '/')).status, 302)
    await page.context().close()
  })
})
