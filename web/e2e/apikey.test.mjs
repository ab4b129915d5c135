// A registrar generates a new API key on the dashboard's API Access tab,
// clicked through in Chromium against a real server; the old key is then
// refused by the /v1 API and the new one accepted.
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
})
