// Two-factor sign-in and sessions, clicked through in Chromium against a
// real server: set up an authenticator app in Account Settings (the codes
// are computed here, per RFC 6238, from the secret shown as text), sign in
// with the password and a code, use a recovery code once, and end another
// browser's session from the list.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { TEST_PASSWORD, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const shots = process.env.NAMEPORT_SHOTS_DIR

/** RFC 4648 base32, as authenticator apps read the secret. */
function base32Decode(text) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of text.replace(/[\s=]/g, '').toUpperCase()) {
    const v = alphabet.indexOf(c)
    if (v < 0) throw new Error(`not base32: ${c}`)
    bits += v.toString(2).padStart(5, '0')
  }
  const bytes = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/** RFC 6238 TOTP (HMAC-SHA1, 30-second steps, 6 digits) of secret at time ms. */
function totp(secret, ms = Date.now()) {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 30)))
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest()
  const offset = mac[mac.length - 1] & 0x0f
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000
  return String(value).padStart(6, '0')
}

// RFC 6238 appendix B's first SHA-1 vector (8 digits there; the last 6 here).
assert.equal(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000), '287082')

async function shoot(page, name) {
  if (!shots) return
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 740 })
    await page.screenshot({ path: `${shots}/two-factor-${name}-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 800 })
}

async function openSettings(page) {
  await page.goto('/dashboard')
  await page.getByRole('tab', { name: 'Account Settings' }).click()
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor()
}

async function logOut(page) {
  await page.goto('/logout')
  await page.waitForURL((url) => url.pathname === '/')
}

async function passwordStep(page, username) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor()
}

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL('**/dashboard')
}

async function recoveryStep(page, username, code) {
  await passwordStep(page, username)
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click()
  await page.getByLabel('Recovery code').fill(code)
  await page.getByRole('button', { name: 'Verify' }).click()
}

describe('two-factor sign-in', () => {
  test('set up, sign in with a code and a recovery code, and end another session', async () => {
    const username = uniqueName('totp')
    const page = await app.newPage()
    await signUp(page, username)

    // Set up: the QR code and the secret as text, confirmed by a first code.
    await openSettings(page)
    await page.getByRole('button', { name: 'Set up authenticator app' }).click()
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
    const secret = (await page.getByTestId('totp-secret').textContent()).replace(/\s/g, '')
    assert.match(secret, /^[A-Z2-7]{32}$/)
    await shoot(page, 'setup')
    await page.getByLabel('Code from the app').fill('12345')
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByText('Enter the 6-digit code from your authenticator app').waitFor()
    await page.getByLabel('Code from the app').fill(totp(secret))
    await page.getByRole('button', { name: 'Turn on' }).click()
    const list = page.getByRole('list', { name: 'Recovery codes' })
    await list.waitFor()
    const recovery = await list.getByRole('listitem').allTextContents()
    assert.equal(recovery.length, 10)
    await shoot(page, 'recovery-codes')
    await page.getByRole('button', { name: 'I have saved them' }).click()
    await page.getByText('On', { exact: true }).waitFor()
    await logOut(page)

    // The password alone is not enough; the next code signs in. (The
    // confirming code's time step is used up: one step ahead is in the
    // window the server accepts.)
    await passwordStep(page, username)
    await shoot(page, 'login-step')
    await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000))
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')
    await logOut(page)

    // A recovery code works once.
    await recoveryStep(page, username, recovery[0])
    await page.waitForURL('**/dashboard')
    await logOut(page)
    await recoveryStep(page, username, recovery[0])
    await page.getByText('Invalid or used recovery code').waitFor()
    await page.getByLabel('Recovery code').fill(recovery[1])
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.waitForURL('**/dashboard')

    // A second browser signs in; the first sees both sessions and ends it.
    const other = await app.newPage()
    await recoveryStep(other, username, recovery[2])
    await other.waitForURL('**/dashboard')
    await openSettings(page)
    const sessions = page.getByRole('list', { name: 'Active sessions' })
    await sessions.getByRole('listitem').nth(1).waitFor()
    assert.equal(await sessions.getByRole('listitem').count(), 2)
    await sessions.getByText('This session').waitFor()
    await shoot(page, 'sessions')
    await sessions.getByRole('button', { name: 'Sign out' }).click()
    await page.getByText('Session signed out', { exact: true }).waitFor()
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Active sessions"] > li').length === 1)
    await other.goto('/dashboard')
    await other.waitForURL((url) => url.pathname === '/login')
    await other.context().close()
    await page.context().close()
  })

  test('an admin without two-factor sign-in is asked to set it up after signing in', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    const banner = page.getByRole('region', { name: 'Two-factor sign-in required' })
    await banner.waitFor()
    await shoot(page, 'policy')
    await banner.getByRole('button', { name: 'Set up now' }).click()
    await page.getByRole('button', { name: 'Set up authenticator app' }).waitFor()
    await page.context().close()
  })
})

describe('two-factor policy', () => {
  test('an admin requires it of every admin: held from the admin area until set up, then back in', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)

    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Users' }).click()
    const card = page.getByRole('tabpanel', { name: 'Users' })
    const admins = card.getByRole('switch', { name: 'Require two-factor sign-in for every admin' })
    await admins.waitFor()
    assert.equal(await admins.getAttribute('aria-checked'), 'false')
    await card.getByRole('heading', { name: 'Two-factor policy' }).scrollIntoViewIfNeeded()
    await shoot(page, 'policy')
    // It has no second factor itself: asked first, then sent to set one up.
    await admins.click()
    const confirm = page.getByRole('dialog', { name: 'Require two-factor sign-in of every admin?' })
    await confirm.waitFor()
    await shoot(page, 'policy-confirm')
    await confirm.getByRole('button', { name: 'Require it' }).click()
    await page.getByText('Two-factor policy saved').waitFor()
    await page.waitForURL('**/dashboard')

    // Held: the admin area sends it to Account Settings, which says why.
    await page.goto('/admin-dashboard')
    await page.waitForURL('**/dashboard')
    await page
      .getByRole('region', { name: 'Two-factor sign-in required' })
      .getByText('Admin tools stay closed until you add a passkey or an authenticator app below.')
      .waitFor()
    await page.getByRole('button', { name: 'Set up authenticator app' }).click()
    const secret = (await page.getByTestId('totp-secret').textContent()).replace(/\s/g, '')
    await page.getByLabel('Code from the app').fill(totp(secret))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('button', { name: 'I have saved them' }).click()

    // Set up: the admin area opens again, the policy as it was left.
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Users' }).click()
    await admins.waitFor()
    assert.equal(await admins.getAttribute('aria-checked'), 'true')
    await page.context().close()
  })
})
