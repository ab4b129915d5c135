// The DNSSEC card of the DNS tab, clicked through in Chromium against a real
// server: a domain Nameport serves needs no DS; once delegated (an NS record
// at its apex) it takes DS records, refused ones say why, and one is deleted.
// And the admin's view (Advanced Config, DNS tab): an extension's zone keys
// with the DS record to give to the parent registry, and its DNSSEC switch.
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

  test("admin sees an extension's keys and DS, and turns DNSSEC off and on", async () => {
    const page = await app.newPage()
    await page.goto('/login')
    await page.getByLabel('Username').fill('demo-admin')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname !== '/login')
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Advanced Config' }).click()
    const advanced = page.getByRole('tabpanel', { name: 'Advanced Config' })
    await advanced
      .getByRole('navigation', { name: 'Extensions' })
      .getByRole('button', { name: /\.inf\.nz/ })
      .click()
    await advanced.getByRole('heading', { name: 'Configure .inf.nz' }).waitFor()
    await advanced.getByRole('tab', { name: 'DNS' }).click()

    const section = advanced.getByRole('region', { name: 'DNSSEC of inf.nz.' })
    await section.getByText('Signed', { exact: true }).waitFor()
    const key = section.getByRole('listitem').first()
    await key.getByText('ECDSAP256SHA256 (13)').waitFor()
    await key.getByText('CSK', { exact: true }).waitFor()
    await key.getByText('active', { exact: true }).waitFor()
    const ds = await key.locator('code').nth(1).textContent()
    assert.match(ds, /^inf\.nz\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}$/)
    const digest = await key.locator('code').first().textContent()
    assert.ok(ds.endsWith(digest), "the digest is the DS record's")
    assert.match(await key.locator('code').nth(2).textContent(), /^inf\.nz\. 3600 IN DNSKEY 257 3 13 /)
    // A ZSK rollover is scheduled (--dnssec-zsk-lifetime, 90 days).
    const rollover = section.getByLabel('Key rollover')
    await rollover.getByText(/^Next ZSK rollover: \w/).waitFor()
    assert.doesNotMatch(await rollover.textContent(), /none scheduled/)

    if (shots) {
      await mkdir(shots, { recursive: true })
      await section.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-admin-1280.png`, fullPage: false })
      await page.setViewportSize({ width: 375, height: 800 })
      await section.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-admin-375.png`, fullPage: false })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    // Off, then on again: the keys stay.
    const sign = advanced.getByLabel('Sign the zone with DNSSEC')
    const update = advanced.getByRole('button', { name: 'Update Extension' })
    assert.equal(await sign.isChecked(), true)
    await sign.uncheck()
    let saved = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && r.url().includes('/api/domain-extensions/'),
    )
    await update.click()
    assert.equal((await saved).request().postDataJSON().dnssecEnabled, false)
    await section.getByText('Unsigned', { exact: true }).waitFor()
    await section.getByText(/DNSSEC is off for this extension/).waitFor()
    assert.equal(await section.getByRole('listitem').count(), 1, 'the key is kept')
    if (shots) {
      await section.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-admin-off-1280.png`, fullPage: false })
    }
    await advanced.getByLabel('Sign the zone with DNSSEC').check()
    saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/domain-extensions/'))
    await update.click()
    assert.equal((await saved).request().postDataJSON().dnssecEnabled, true)
    await section.getByText('Signed', { exact: true }).waitFor()

    // A KSK rollover: asked first, then the new key is published beside the
    // old one; its DS cannot be confirmed until caches hold the new key.
    await rollover.getByRole('button', { name: 'Start KSK rollover' }).click()
    const ask = page.getByRole('dialog', { name: 'Start a KSK rollover of inf.nz.?' })
    await ask.getByRole('button', { name: 'Start rollover' }).click()
    await ask.waitFor({ state: 'detached' })
    await rollover.getByText('KSK rollover under way').waitFor()
    await rollover.getByText(/A new KSK is published, with its CDS and CDNSKEY records\. Give its DS record/).waitFor()
    assert.equal(await section.getByRole('listitem').count(), 2, 'both keys')
    const fresh = section.getByRole('listitem').nth(1)
    await fresh.getByText('published', { exact: true }).waitFor()
    assert.match(await fresh.locator('code').nth(1).textContent(), /^inf\.nz\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}$/)
    assert.equal(await rollover.getByRole('button', { name: 'The parent publishes the new DS' }).count(), 0, 'not yet')
    assert.equal(await rollover.getByRole('button', { name: 'Start KSK rollover' }).count(), 0, 'one at a time')
    if (shots) {
      await rollover.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-rollover-1280.png`, fullPage: false })
      await page.setViewportSize({ width: 375, height: 800 })
      await rollover.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/dnssec-rollover-375.png`, fullPage: false })
      await page.setViewportSize({ width: 1280, height: 800 })
    }
  })
})
