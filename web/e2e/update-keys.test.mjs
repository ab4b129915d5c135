// The dynamic update card of the DNS tab, clicked through in Chromium
// against a real server: a key scoped to ACME challenges is made and its
// secret shown once, a bad name is refused with the reason, and the key is
// revoked.
import { mkdir } from 'node:fs/promises'
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, registerName, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const shots = process.env.NAMEPORT_SHOTS

describe('Dynamic update keys', () => {
  test('make, see once, list and revoke an update key', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('upduser'))
    await deposit(page, 20)
    const label = uniqueName('e2e-upd-')
    await registerName(page, label)
    const panel = page.getByRole('tabpanel', { name: 'DNS Management' })
    await panel.getByText(/No update keys/).waitFor()

    const form = panel.getByRole('form', { name: 'Make update key' })
    await form.getByLabel('Key name').fill('bad.name')
    await form.getByRole('button', { name: 'Make update key' }).click()
    await form.getByText(/Key name must be 1 to 63 letters, digits or hyphens/).waitFor()

    await form.getByLabel('Key name').fill('certbot')
    await form.getByRole('button', { name: 'Make update key' }).click()
    const dialog = page.getByRole('dialog', { name: /is ready/ })
    await dialog.getByText('This is the only time this secret is shown', { exact: false }).waitFor()
    const secret = await dialog.getByLabel('New update key secret').inputValue()
    assert.match(secret, /^[A-Za-z0-9+/]{43}=$/)
    if (shots) {
      await mkdir(shots, { recursive: true })
      await page.screenshot({ path: `${shots}/update-key-secret-1280.png`, fullPage: false })
    }
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })

    const list = panel.getByRole('list', { name: 'Update keys' })
    const keyName = `certbot.${label}.inf.nz.`
    await list.getByText(keyName).waitFor()
    await list.getByText('hmac-sha256 · _acme-challenge · TXT').waitFor()
    await list.getByText('Last used: never').waitFor()
    assert.equal(await page.getByText(secret).count(), 0, 'the secret is not shown again')

    if (shots) {
      await list.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/update-keys-1280.png`, fullPage: false })
      await page.setViewportSize({ width: 375, height: 800 })
      await list.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${shots}/update-keys-375.png`, fullPage: false })
      await page.setViewportSize({ width: 1280, height: 800 })
    }

    page.once('dialog', (d) => d.accept())
    await list.getByRole('button', { name: `Revoke ${keyName}` }).click()
    await panel.getByText(/No update keys/).waitFor()
  })
})
