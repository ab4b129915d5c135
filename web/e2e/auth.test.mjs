// Sign-up, login, logout and the dashboards, clicked through in Chromium
// against a real server.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { uniqueName, useApp, verifyEmail } from './harness.mjs'

const app = useApp({ before, after })

async function register(page, { type, username, password = 'correct-horse-9' }) {
  await page.goto(type === 'registrar' ? '/register?type=registrar' : '/register')
  await page.getByLabel('Full name').fill(`Test ${username}`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByLabel('Confirm password').fill(password)
  await page.getByRole('button', { name: 'Create Account' }).click()
}

function header(page) {
  return page.getByRole('banner')
}

describe('accounts', () => {
  test('an end user registers, lands on /dashboard, and logs out to the home page', async () => {
    const page = await app.newPage()
    const username = uniqueName('user')
    await register(page, { type: 'user', username })

    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor()
    await page.getByText('Registration successful', { exact: true }).waitFor()
    assert.equal(await header(page).getByRole('link', { name: 'Dashboard' }).getAttribute('href'), '/dashboard')
    // A new account has no domains: the table shows its empty state.
    await page.getByText('No domains found').waitFor()

    await header(page).getByRole('link', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByText('You have been logged out.', { exact: true }).waitFor()
    await header(page).getByRole('link', { name: 'Log in' }).waitFor()

    // The session is really gone: the dashboard now asks for a login.
    await page.goto('/dashboard')
    await page.waitForURL((url) => url.pathname === '/login')
    await page.context().close()
  })

  test('a registrar registers from /register?type=registrar and sees the API key preview', async () => {
    const page = await app.newPage()
    const username = uniqueName('reg')
    await page.goto('/register?type=registrar')
    assert.equal(await page.getByRole('radio', { name: /Registrar Partner/ }).isChecked(), true)
    await register(page, { type: 'registrar', username })

    await page.waitForURL('**/registrar-dashboard')
    await page.getByRole('heading', { name: 'Registrar Dashboard' }).waitFor()
    const apiStatus = page.getByText('API Status').locator('..')
    await apiStatus.getByText('Active').waitFor()
    const preview = await apiStatus.getByText(/\.\.\.$/).textContent()
    assert.match(preview, /^\S{8}\.\.\.$/)

    await page.getByRole('tab', { name: 'API Access' }).click()
    await page.waitForURL('**/registrar-dashboard?tab=api')
    const apiKey = await page.getByRole('textbox', { name: 'API key' }).inputValue()
    assert.equal(preview, `${apiKey.slice(0, 8)}...`)
    await page.context().close()
  })

  test("a wrong password shows the 'Login failed' toast", async () => {
    const page = await app.newPage()
    const username = uniqueName('pw')
    await register(page, { type: 'user', username })
    await page.waitForURL('**/dashboard')
    await page.goto('/logout')
    await page.waitForURL((url) => url.pathname === '/')

    await page.goto('/login')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByText('Login failed', { exact: true }).waitFor()
    await page.getByText('Invalid username or password', { exact: true }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/login')

    // And the right one logs in.
    await page.getByLabel('Password').fill('correct-horse-9')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByText('Login successful', { exact: true }).waitFor()
    await page.context().close()
  })

  test('a too-short username shows the spec message and sends nothing', async () => {
    const page = await app.newPage()
    const requests = []
    page.on('request', (request) => request.url().includes('/api/auth/login') && requests.push(request.url()))
    await page.goto('/login')
    await page.getByLabel('Username').fill('ab')
    await page.getByLabel('Password').fill('long-enough')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByText('Username must be at least 3 characters').waitFor()
    assert.deepEqual(requests, [])
    await page.context().close()
  })

  test('a new account verifies its email address through the mailed link before adding funds', async () => {
    const page = await app.newPage()
    const username = uniqueName('verify')
    await register(page, { type: 'user', username })
    await page.waitForURL('**/dashboard')
    const banner = page.getByRole('region', { name: 'Email verification' })
    await banner.getByText(`We sent a link to ${username}@example.com.`, { exact: false }).waitFor()

    const refused = await page.request.post('/api/wallet/deposit', { data: { amount: 20 } })
    assert.equal(refused.status(), 403)
    assert.equal((await refused.json()).error, 'Verify your email address before registering names or adding funds.')

    await banner.getByRole('button', { name: 'Resend email' }).click()
    await page.getByText('Verification email sent', { exact: true }).waitFor()
    await verifyEmail(page, `${username}@example.com`)
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor()
    await page.waitForLoadState('networkidle')
    assert.equal(await banner.count(), 0)
    const deposit = await page.request.post('/api/wallet/deposit', { data: { amount: 20 } })
    assert.equal(deposit.status(), 201)
    await page.context().close()
  })
})
