// Passkeys, clicked through in Chromium against a real server, with
// Chromium's virtual authenticator (DevTools protocol WebAuthn domain) in
// place of a phone or a laptop's chip: add a passkey in Account Settings,
// sign in with it alone, confirm a password sign-in with it, rename it and
// remove it. WebAuthn needs a domain name: the server is reached (and its
// public URL set) as http://localhost.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { TEST_PASSWORD, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after, host: 'localhost' })
const shots = process.env.NAMEPORT_SHOTS_DIR

async function shoot(page, name) {
  if (!shots) return
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 740 })
    await page.screenshot({ path: `${shots}/passkeys-${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** A platform authenticator that verifies its user without asking, as a test needs. */
async function virtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return {
    async credentials() {
      return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials
    },
  }
}

async function openSettings(page) {
  await page.goto('/dashboard')
  await page.getByRole('tab', { name: 'Account Settings' }).click()
  await page.getByRole('heading', { name: 'Passkeys' }).waitFor()
}

async function logOut(page) {
  await page.goto('/logout')
  await page.waitForURL((url) => url.pathname === '/')
}

const passkeys = (page) => page.getByRole('list', { name: 'Passkeys' })

describe('passkeys', () => {
  test('add one, sign in with it alone and after the password, rename and remove it', async () => {
    const username = uniqueName('pk')
    const page = await app.newPage()
    const authenticator = await virtualAuthenticator(page)
    await signUp(page, username)

    await openSettings(page)
    await page.getByText('No passkeys yet.').waitFor()
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' })
    await dialog.getByLabel('Name').fill('Test laptop')
    await dialog.getByRole('button', { name: 'Create passkey' }).click()
    await page.getByText('Passkey added', { exact: true }).waitFor()
    await passkeys(page)
      .getByRole('listitem', { name: 'Test laptop' })
      .getByText(/Never used/)
      .waitFor()
    const stored = await authenticator.credentials()
    assert.equal(stored.length, 1)
    assert.equal(stored[0].isResidentCredential, true, 'a discoverable credential')
    await shoot(page, 'settings')

    // A passkey alone: no username, no password.
    await logOut(page)
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor()
    await shoot(page, 'login')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')
    await openSettings(page)
    await passkeys(page)
      .getByRole('listitem', { name: 'Test laptop' })
      .getByText(/Last used/)
      .waitFor()

    // The password now asks for the passkey as its second step.
    await logOut(page)
    await page.goto('/login')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Password').fill(TEST_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
    await page.getByRole('button', { name: 'Use your passkey' }).click()
    await page.waitForURL((url) => url.pathname === '/dashboard')

    // Rename, then remove.
    await openSettings(page)
    await passkeys(page).getByRole('listitem', { name: 'Test laptop' }).getByRole('button', { name: 'Rename' }).click()
    const rename = page.getByRole('dialog', { name: 'Rename passkey' })
    await rename.getByLabel('Name').fill('Work laptop')
    await rename.getByRole('button', { name: 'Save' }).click()
    await passkeys(page).getByRole('listitem', { name: 'Work laptop' }).waitFor()
    await passkeys(page).getByRole('listitem', { name: 'Work laptop' }).getByRole('button', { name: 'Remove' }).click()
    // Removing asks for the password again.
    const remove = page.getByRole('dialog', { name: 'Remove this passkey?' })
    await remove.getByLabel('Password').fill('not-the-password')
    await remove.getByRole('button', { name: 'Remove' }).click()
    await remove.getByText('Password is incorrect').waitFor()
    await remove.getByLabel('Password').fill(TEST_PASSWORD)
    await remove.getByRole('button', { name: 'Remove' }).click()
    await page.getByText('Passkey removed', { exact: true }).waitFor()
    await page.getByText('No passkeys yet.').waitFor()

    // The authenticator still holds it, but the site no longer knows it.
    await logOut(page)
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.getByText('This passkey could not sign you in').first().waitFor()
    assert.equal(new URL(page.url()).pathname, '/login')
  })
})
