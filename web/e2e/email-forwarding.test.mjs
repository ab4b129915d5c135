// The Email Forwarding tab, clicked through in Chromium against a real server
// started with --demo: forwarding turned on (the DNS server answers the MX),
// a rule added, its address confirmed through the link mailed to it (read
// from the outbox: there is no SMTP relay here) by the button of the page it
// opens, the rule's alias changed, a refused message in the log, and
// forwarding turned off (the MX is gone).
import { execFile } from 'node:child_process'
import { connect } from 'node:net'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, launchBrowser, mailedLink, registerName, signUp, startServer, uniqueName } from './harness.mjs'

// Not useApp: these tests also need the server's DNS and mail addresses.
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

const run = promisify(execFile)

/** The MX records the server's DNS role answers for name, as `dig +short` prints them. */
async function digMX(name) {
  const [host, port] = server.dnsAddr.split(':')
  const { stdout } = await run('dig', ['+short', '+time=2', '+tries=1', `@${host}`, '-p', port, 'MX', name])
  return stdout.trim()
}

/**
 * Asks until the answer is `expected`. A change made through the API is
 * published to the DNS role within milliseconds, but not in the same instant.
 */
async function expectMX(name, expected) {
  let answer
  for (let i = 0; i < 100; i++) {
    answer = await digMX(name)
    if (answer === expected) return
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.equal(answer, expected, `MX of ${name}`)
}

/**
 * Offers a message for rcpt to the mail role over SMTP and returns the reply
 * to RCPT TO (the session ends there: a refused address ends it anyway).
 */
async function smtpRcpt(rcpt) {
  const [host, port] = server.mailAddr.split(':')
  const socket = connect(Number(port), host)
  socket.setEncoding('utf8')
  let buffer = ''
  const waiting = []
  socket.on('data', (chunk) => {
    buffer += chunk
    // A reply is complete at a line "NNN text" (a "NNN-text" line continues it).
    let match
    while ((match = /^(?:\d{3}-[^\n]*\n)*\d{3}(?: [^\n]*)?\r?\n/.exec(buffer))) {
      buffer = buffer.slice(match[0].length)
      waiting.shift()?.(match[0])
    }
  })
  const reply = () => new Promise((resolveReply) => waiting.push(resolveReply))
  const send = (line) => {
    const next = reply()
    socket.write(`${line}\r\n`)
    return next
  }
  try {
    assert.match(await reply(), /^220/)
    assert.match(await send('EHLO e2e.example'), /^250/)
    assert.match(await send('MAIL FROM:<sender@example.com>'), /^250/)
    const rcptReply = await send(`RCPT TO:<${rcpt}>`)
    socket.write('QUIT\r\n')
    return rcptReply
  } finally {
    socket.end()
  }
}

describe('email forwarding', () => {
  test('on, a rule, its address confirmed by the mailed link, the rule edited, the MX in DNS, the log, and off', async () => {
    const page = await newPage()
    await signUp(page, uniqueName('fwduser'))
    await deposit(page, 20)
    const label = uniqueName('e2e-fwd-')
    const apex = `${label}.inf.nz`
    await registerName(page, label)
    await expectMX(apex, '')

    await page.getByRole('tab', { name: 'Email Forwarding' }).click()
    await page.waitForURL(/\?tab=email-forwarding$/)
    const panel = page.getByRole('tabpanel', { name: 'Email Forwarding' })
    await panel.getByText('mx.inf.nz', { exact: true }).waitFor()
    await panel.getByText('Off', { exact: true }).waitFor()
    await panel.getByText('0 of 20 rules', { exact: true }).waitFor()
    await panel.getByText('No forwarding rules yet', { exact: true }).waitFor()
    await panel.getByText('No messages yet', { exact: true }).waitFor()

    // On: a new domain has no other mail records, so nothing is asked first.
    await panel.getByRole('button', { name: 'Turn on email forwarding' }).click()
    await page.getByText('Email forwarding turned on', { exact: true }).waitFor()
    await panel.getByText('On', { exact: true }).waitFor()
    assert.equal(await page.getByRole('dialog').count(), 0)
    await expectMX(apex, '10 mx.inf.nz.')

    // A rule to an address outside the domain: it waits for its reader.
    const destination = `${uniqueName('inbox')}@example.net`
    const form = panel.getByRole('form', { name: 'Add a forwarding rule' })
    await form.getByLabel('Alias').fill('info')
    await form.getByLabel('Forward to address 1').fill(destination)
    await form.getByRole('button', { name: 'Add rule' }).click()
    await page.getByText('Forwarding rule added', { exact: true }).waitFor()
    const rules = panel.getByRole('table', { name: 'Forwarding rules' })
    const infoRow = rules.getByRole('row').filter({ hasText: `info@${apex}` })
    await infoRow.getByText('Waiting for confirmation', { exact: true }).waitFor()
    await panel.getByText('1 of 20 rules', { exact: true }).waitFor()

    // A refusal from the server shows in the form as it comes.
    await form.getByLabel('Alias').fill('sales')
    await form.getByLabel('Forward to address 1').fill(`someone@${apex}`)
    await form.getByRole('button', { name: 'Add rule' }).click()
    await form
      .getByRole('alert')
      .getByText(
        `"someone@${apex}" is not an address mail can be forwarded to: it is at the domain being forwarded, which would send mail round in a loop`,
        { exact: true },
      )
      .waitFor()
    assert.equal(await rules.locator('tbody tr').count(), 1)

    // The link mailed to the address, opened by its reader, who has no session here.
    const link = await mailedLink(
      server.baseURL,
      destination,
      'verify_forwarding',
      /\/email-forwarding\/confirm\?token=[A-Za-z0-9_-]+/,
    )
    const reader = await newPage()
    await reader.goto(link)
    const confirmButton = reader.getByRole('button', { name: 'Confirm forwarding' })
    await confirmButton.waitFor()
    // Opening the link confirms nothing (a mail scanner opens links too): the owner still waits.
    await page.reload()
    await infoRow.getByText('Waiting for confirmation', { exact: true }).waitFor()
    await confirmButton.click()
    await reader.getByText(`Forwarding to ${destination} is confirmed`, { exact: true }).waitFor()
    await reader.getByRole('link', { name: 'Go to the home page' }).waitFor()
    // It works once.
    await reader.goto(link)
    await reader.getByRole('button', { name: 'Confirm forwarding' }).click()
    await reader.getByText('This confirmation link is invalid or has already been used', { exact: true }).waitFor()
    await reader.context().close()

    await page.reload()
    await infoRow.getByText('Verified', { exact: true }).waitFor()
    assert.equal(await infoRow.getByRole('button', { name: /Resend link/ }).count(), 0)

    // The rule gets another alias; its address stays confirmed, and mail follows the new alias.
    await infoRow.getByRole('button', { name: `Edit rule info@${apex}` }).click()
    const editDialog = page.getByRole('dialog', { name: `Edit the rule for info@${apex}` })
    assert.equal(await editDialog.getByLabel('Alias').inputValue(), 'info')
    assert.equal(await editDialog.getByLabel('Forward to address 1').inputValue(), destination)
    await editDialog.getByLabel('Alias').fill('contact')
    await editDialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Forwarding rule saved', { exact: true }).waitFor()
    await editDialog.waitFor({ state: 'detached' })
    const contactRow = rules.getByRole('row').filter({ hasText: `contact@${apex}` })
    await contactRow.getByText('Verified', { exact: true }).waitFor()
    await infoRow.waitFor({ state: 'detached' })
    assert.equal(await rules.locator('tbody tr').count(), 1)
    await panel.getByText('1 of 20 rules', { exact: true }).waitFor()
    assert.match(await smtpRcpt(`contact@${apex}`), /^250/)
    assert.match(await smtpRcpt(`info@${apex}`), /^550/)

    // Mail for an address without a rule is refused, and the log says so.
    assert.match(await smtpRcpt(`nobody@${apex}`), /^550/)
    await panel.getByRole('button', { name: 'Refresh the log' }).click()
    const logRow = panel
      .getByRole('table', { name: 'Forwarding log' })
      .getByRole('row')
      .filter({ hasText: `nobody@${apex}` })
    await logRow.getByText('Refused', { exact: true }).waitFor()

    // The DNS tab lists the MX that forwarding added.
    await page.getByRole('tab', { name: 'DNS Management' }).click()
    await page
      .getByRole('tabpanel', { name: 'DNS Management' })
      .getByRole('table', { name: 'DNS records' })
      .getByRole('row')
      .filter({ hasText: '10 mx.inf.nz' })
      .waitFor()

    // Off: the MX goes, the rule stays.
    await page.getByRole('tab', { name: 'Email Forwarding' }).click()
    await panel.getByRole('button', { name: 'Turn off email forwarding' }).click()
    await page.getByText('Email forwarding turned off', { exact: true }).waitFor()
    await panel.getByText('Off', { exact: true }).waitFor()
    await expectMX(apex, '')
    await contactRow.getByText('Verified', { exact: true }).waitFor()
    await page.context().close()
  })
})
