// A registrar generates a new API key on the dashboard's API Access tab,
// clicked through in Chromium against a real server; the old key is then
// refused by the /v1 API and the new one accepted. A registrar makes a
// scoped key there, which /v1 holds to its scope, and revokes it.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

/** GET /v1/wallet with a key, from outside the browser: the status code. */
async function walletStatus(apiKey) {
  const res = await fetch(`${app.baseURL}/v1/wallet`, { headers: { 'X-API-Key': apiKey } })
  await res.arrayBuffer()
  return res.status
}

describe('API key', () => {
  test('a registrar generates a new key; the old key is refused and the new one works', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('keyreg'), { type: 'registrar' })
    await page.goto('/registrar-dashboard?tab=api')
    const field = page.getByRole('textbox', { name: 'API key' })
    await field.waitFor()
    const oldKey = await field.inputValue()
    assert.match(oldKey, /^np_/)
    assert.equal(await walletStatus(oldKey), 200)

    // Cancelling changes nothing.
    await page.getByRole('button', { name: 'Generate New Key' }).click()
    let dialog = page.getByRole('dialog', { name: 'Generate a new API key?' })
    await dialog.getByText('Generating a new key will invalidate your existing key.').waitFor()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    assert.equal(await field.inputValue(), oldKey)

    // Confirming replaces the key in the field and in the API Status card.
    await page.getByRole('button', { name: 'Generate New Key' }).click()
    dialog = page.getByRole('dialog', { name: 'Generate a new API key?' })
    await dialog.getByRole('button', { name: 'Generate New Key' }).click()
    await page.getByText('API key regenerated', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.waitForFunction((old) => document.querySelector('#api-key')?.value !== old, oldKey)
    const newKey = await field.inputValue()
    assert.match(newKey, /^np_/)
    assert.notEqual(newKey, oldKey)
    const apiStatus = page.getByText('API Status').locator('..')
    await apiStatus.getByText(`${newKey.slice(0, 8)}...`, { exact: true }).waitFor()
    assert.match(await page.locator('pre code').textContent(), new RegExp(`const apiKey = '${newKey}'`))

    // The server agrees: the old key is refused at once, the new one accepted.
    assert.equal(await walletStatus(oldKey), 401)
    assert.equal(await walletStatus(newKey), 200)

    // A reload reads the same new key from the server.
    await page.reload()
    await field.waitFor()
    assert.equal(await field.inputValue(), newKey)
    await page.context().close()
  })

  test('a registrar makes a read-only key, sees its secret once, uses it, then revokes it', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('scopereg'), { type: 'registrar' })
    await page.goto('/registrar-dashboard?tab=api')
    await page.getByRole('table', { name: 'API keys' }).waitFor()

    await page.getByRole('button', { name: 'Create key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create API key' })
    await dialog.getByLabel('Name').fill('Reports')
    await dialog.getByLabel('Allowed addresses (optional)').fill('127.0.0.1')
    await dialog.getByRole('button', { name: 'Create key' }).click()
    const shown = page.getByRole('dialog', { name: 'Reports is ready' })
    const secret = await shown.getByLabel('New API key').inputValue()
    assert.match(secret, /^np_/)

    // Read, yes; a deposit needs the wallet scope.
    assert.equal(await walletStatus(secret), 200)
    const deposit = await fetch(`${app.baseURL}/v1/wallet/deposits`, {
      method: 'POST',
      headers: { 'X-API-Key': secret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amount: 5 }),
    })
    assert.equal(deposit.status, 403)
    assert.equal((await deposit.json()).detail, 'This API key lacks the wallet scope')

    // Once closed, the secret is nowhere on the page.
    await shown.getByRole('button', { name: 'Done' }).click()
    await shown.waitFor({ state: 'detached' })
    const row = page.getByRole('row', { name: /Reports/ })
    await row.getByText('127.0.0.1').waitFor()
    assert.equal(await page.getByText(secret).count(), 0)

    await row.getByRole('button', { name: 'Revoke key Reports' }).click()
    await page.getByRole('dialog', { name: 'Revoke Reports?' }).getByRole('button', { name: 'Revoke key' }).click()
    await page.getByText('API key revoked', { exact: true }).waitFor()
    await row.waitFor({ state: 'detached' })
    assert.equal(await walletStatus(secret), 401)
    await page.context().close()
  })
})
