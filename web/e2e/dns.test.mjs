// The DNS Management tab, clicked through in Chromium against a real server
// started with --demo: records added, edited and deleted, a refusal from the
// server, zone file export and import.
import { readFile } from 'node:fs/promises'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, registerName, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

/** Fills and saves the open add/edit dialog. */
async function fillRecord(dialog, { type, name, content, ttl, priority }) {
  if (type) await dialog.getByLabel('Type').selectOption(type)
  if (name !== undefined) await dialog.getByLabel('Name').fill(name)
  if (content !== undefined) await dialog.getByLabel('Content').fill(content)
  if (ttl !== undefined) await dialog.getByLabel('TTL (seconds)').fill(String(ttl))
  if (priority !== undefined) await dialog.getByLabel('Priority').fill(String(priority))
}

describe('DNS management', () => {
  test('add, edit, delete, a refused record, export and import', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('dnsuser'))
    await deposit(page, 20)
    const label = uniqueName('e2e-dns-')
    const apex = `${label}.inf.nz`
    await registerName(page, label)

    const panel = page.getByRole('tabpanel', { name: 'DNS Management' })
    await panel.getByText('No DNS records found', { exact: true }).waitFor()
    const table = panel.getByRole('table', { name: 'DNS records' })
    const row = (text) => table.getByRole('row').filter({ hasText: text })

    // An A record at the apex.
    await panel.getByRole('button', { name: 'Add Record' }).click()
    let dialog = page.getByRole('dialog', { name: 'Add DNS record' })
    assert.equal(await dialog.getByLabel('Type').inputValue(), 'A')
    assert.equal(await dialog.getByLabel('TTL (seconds)').inputValue(), '3600')
    assert.equal(await dialog.getByLabel('Priority').count(), 0)
    await fillRecord(dialog, { name: '@', content: '192.0.2.10' })
    await dialog.getByRole('button', { name: 'Save record' }).click()
    await page.getByText('DNS record added', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await row('192.0.2.10').waitFor()
    assert.match(
      await row('192.0.2.10').textContent(),
      new RegExp(`^A@${apex.replace(/\./g, '\\.')}192\\.0\\.2\\.103600`),
    )

    // An MX record: the priority field appears for MX only.
    await panel.getByRole('button', { name: 'Add Record' }).click()
    dialog = page.getByRole('dialog', { name: 'Add DNS record' })
    await dialog.getByLabel('Type').selectOption('MX')
    await dialog.getByLabel('Priority').waitFor()
    await fillRecord(dialog, { name: '@', content: 'mail.example.com', priority: 10 })
    await dialog.getByRole('button', { name: 'Save record' }).click()
    await dialog.waitFor({ state: 'detached' })
    await row('10 mail.example.com').waitFor()
    assert.equal(await table.locator('tbody tr').count(), 2)

    // Edit the A record's TTL.
    await row('192.0.2.10').getByRole('button', { name: 'Edit A record @' }).click()
    dialog = page.getByRole('dialog', { name: 'Edit DNS record' })
    assert.equal(await dialog.getByLabel('Content').inputValue(), '192.0.2.10')
    await fillRecord(dialog, { ttl: 600 })
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('DNS record updated', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await row('192.0.2.10').filter({ hasText: /600$/ }).waitFor()

    // Delete the MX, accepting the browser's confirmation.
    let confirmation
    page.once('dialog', (browserDialog) => {
      confirmation = browserDialog.message()
      void browserDialog.accept()
    })
    await row('mail.example.com').getByRole('button', { name: 'Delete MX record @' }).click()
    await page.getByText('DNS record deleted', { exact: true }).waitFor()
    await row('mail.example.com').waitFor({ state: 'detached' })
    assert.equal(confirmation, 'Are you sure you want to delete this DNS record?')
    assert.equal(await table.locator('tbody tr').count(), 1)

    // The server refuses an A record that is not an IPv4 address; the dialog stays.
    await panel.getByRole('button', { name: 'Add Record' }).click()
    dialog = page.getByRole('dialog', { name: 'Add DNS record' })
    await fillRecord(dialog, { name: 'bad', content: '999.1.1.1' })
    await dialog.getByRole('button', { name: 'Save record' }).click()
    // The toast (the dialog's own hint also mentions IPv4).
    const failure = page.locator('li', { has: page.getByText('Failed to create DNS record', { exact: true }) })
    await failure.waitFor()
    assert.match(await failure.textContent(), /IPv4/)
    // The message is beside the Content field too, which has the focus.
    const content = dialog.getByLabel('Content')
    assert.match(await content.getAttribute('aria-invalid'), /true/)
    assert.ok(await content.evaluate((el) => el === document.activeElement), 'Content has the focus')
    await dialog.getByText('A record content must be an IPv4 address, like 192.0.2.1', { exact: true }).waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    assert.equal(await table.locator('tbody tr').count(), 1)

    // Export offers the BIND file.
    const downloading = page.waitForEvent('download')
    await panel.getByRole('button', { name: 'Export zone file' }).click()
    const download = await downloading
    assert.equal(download.suggestedFilename(), `${apex}.zone`)
    const exported = await readFile(await download.path(), 'utf8')
    assert.match(exported, new RegExp(`^\\$ORIGIN ${apex.replace(/\./g, '\\.')}\\.$`, 'm'))
    assert.match(exported, /^@\s+600\s+IN\s+A\s+192\.0\.2\.10$/m)

    // Import: the preview lists what the file adds, then it is applied.
    await panel.getByRole('button', { name: 'Import zone file' }).click()
    dialog = page.getByRole('dialog', { name: 'Import zone file' })
    const zoneFile = [
      `$ORIGIN ${apex}.`,
      '$TTL 3600',
      '@     600  IN A     192.0.2.10',
      'blog       IN A     192.0.2.20',
      '@          IN TXT   "v=spf1 -all"',
      '',
    ].join('\n')
    await dialog.getByLabel('Zone file').fill(zoneFile)
    await dialog.getByRole('button', { name: 'Preview' }).click()
    const preview = dialog.getByRole('region', { name: 'Import preview' })
    await preview.getByRole('heading', { name: 'To add (2)' }).waitFor()
    await preview.getByRole('heading', { name: 'To change (0)' }).waitFor()
    await preview.getByRole('heading', { name: 'To remove (0)' }).waitFor()
    const additions = await preview.getByRole('list', { name: 'To add (2)' }).getByRole('listitem').allTextContents()
    assert.equal(additions.length, 2)
    assert.ok(
      additions.some((text) => /Ablog192\.0\.2\.20/.test(text)),
      additions.join(' | '),
    )
    assert.ok(
      additions.some((text) => /TXT@.*v=spf1 -all/.test(text)),
      additions.join(' | '),
    )
    await preview.getByText('1 record stays as it is.').waitFor()
    await dialog.getByText('records not in the file will be removed', { exact: false }).waitFor()
    await dialog.getByRole('button', { name: 'Apply import' }).click()
    await page.getByText('Zone file imported', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await row('192.0.2.20').waitFor()
    assert.equal(await table.locator('tbody tr').count(), 3)

    // One TTL per name and type: another A record at @ with the default
    // TTL (3600) is refused, the @ A records being at 600; the dialog shows
    // the server's message and aligns the whole set when asked.
    await panel.getByRole('button', { name: 'Add Record' }).click()
    dialog = page.getByRole('dialog', { name: 'Add DNS record' })
    await fillRecord(dialog, { name: '@', content: '192.0.2.11' })
    await dialog.getByRole('button', { name: 'Save record' }).click()
    const refusal = dialog.getByRole('alert')
    await refusal
      .getByText('Records of @ A share one TTL (600 seconds): set 600, or change the TTL of the whole set to 3600', {
        exact: true,
      })
      .waitFor()
    await refusal.getByRole('button', { name: 'Align all to 3600' }).click()
    await page.getByText('DNS record added', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await row('192.0.2.11').filter({ hasText: /3600$/ }).waitFor()
    await row('192.0.2.10').filter({ hasText: /3600$/ }).waitFor()

    // MX records that differ only in priority are two records.
    for (const priority of [10, 20]) {
      await panel.getByRole('button', { name: 'Add Record' }).click()
      dialog = page.getByRole('dialog', { name: 'Add DNS record' })
      await dialog.getByLabel('Type').selectOption('MX')
      await fillRecord(dialog, { name: '@', content: 'mx.example.com', priority })
      await dialog.getByRole('button', { name: 'Save record' }).click()
      await dialog.waitFor({ state: 'detached' })
      await row(`${priority} mx.example.com`).waitFor()
    }
    assert.equal(await table.locator('tbody tr').count(), 6)

    // The records survive a reload.
    await page.reload()
    await row('192.0.2.20').waitFor()
    assert.equal(await table.locator('tbody tr').count(), 6)
    await page.context().close()
  })

  test("another account's domain page does not show its records", async () => {
    const owner = await app.newPage()
    await signUp(owner, uniqueName('dnsowner'))
    await deposit(owner, 20)
    await registerName(owner, uniqueName('e2e-own-'))
    const path = new URL(owner.url()).pathname
    await owner.context().close()

    const other = await app.newPage()
    await signUp(other, uniqueName('dnsother'))
    await other.goto(path)
    await other.getByText('Could not load domain information', { exact: true }).waitFor()
    await other.waitForURL('**/dashboard')
    assert.equal(await other.getByRole('table', { name: 'DNS records' }).count(), 0)
    await other.context().close()
  })
})
