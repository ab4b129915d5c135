// The DNSSEC card of the DNS tab, clicked through in Chromium against a real
// server: a domain Nameport serves needs no DS; once delegated (an NS record
// at its apex) it takes DS records, refused ones say why, and one is deleted.
import { mkdir } from 'node:fs/promises'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, registerName, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const digest = '1F987CC6583E92DF0890718C42C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8E1C8'
const shots = process.env.NAMEPORT_SHOTS

describe('DNSSEC', () => {
  test('DS records of a delegated domain', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('dsuser'))
    await deposit(page, 20)
    const label = uniqueName('e2e-ds-')
    await registerName(page, label)
    const panel = page.getByRole('tabpanel', { name: 'DNS Management' })
    await panel.getByText(/DS records are for a domain delegated to other name servers/).waitFor()

    // Delegate it.
    await panel.getByRole('button', { name: 'Add Record' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add DNS record' })
    await dialog.getByLabel('Type').selectOption('NS')
    await dialog.getByLabel('Name').fill('@')
    await dialog.getByLabel('Content').fill('ns1.example.net')
    await dialog.getByRole('button', { name: 'Save record' }).click()
    await dialog.waitFor({ state: 'detached' })

    const form = panel.getByRole('form', { name: 'Add DS record' })
    await panel.getByText(/No DS records/).waitFor()
    await form.getByLabel('Key tag').fill('2371')
    await form.getByLabel('Digest', { exact: true }).fill(digest.slice(0, 60))
    await form.getByRole('button', { name: 'Add DS record' }).click()
    await form.getByText('A digest of type 2 is 64 hexadecimal characters long, not 60').waitFor()

    await form.getByLabel('Digest', { exact: true }).fill(digest.toLowerCase())
    await form.getByRole('button', { name: 'Add DS record' }).click()
    const list = panel.getByRole('list', { name: 'DS records' })
    await list.getByText('Key tag 2371 · algorithm 13 · digest type 2').waitFor()
    assert.equal(await list.getByText(digest).count(), 1)

    if (shots) {
      await mkdir(shots, { recursive: true })
      await list.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-1280.png`, fullPage: false })
      await page.setViewportSize({ width: 375, height: 800 })
      await list.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-375.png`, fullPage: false })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    page.once('dialog', (d) => d.accept())
    await list.getByRole('button', { name: 'Delete DS record 2371' }).click()
    await panel.getByText(/No DS records/).waitFor()
  })
})
