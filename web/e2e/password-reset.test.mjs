// Forgot password, clicked through in Chromium against a real server: the
// link arrives in the outbox (no SMTP server here), which the test reads
// through the admin API as demo-admin, as an operator would.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

async function api(path, { method = 'GET', body, cookie } = {}) {
  const res = await fetch(app.baseURL + path, {
    method,
    headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(cookie ? { Cookie: cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { res, json: await res.json() }
}

async function adminCookie() {
  const { res } = await api('/api/auth/login', {
    method: 'POST',
    body: { username: 'demo-admin', password: 'demo1234' },
  })
  assert.equal(res.status, 200)
  return res.headers.get('set-cookie').split(';')[0]
}

/** Waits for the worker to record the reset mail to `email` and returns its link. */
async function resetLinkFor(email) {
  const cookie = await adminCookie()
  for (let i = 0; i < 100; i++) {
    const { json } = await api('/api/admin/outbox?limit=20', { cookie })
    const mail = json.data.messages.find((m) => m.kind === 'password_reset' && m.to === email)
    if (mail) {
      const link = mail.body.match(/https?:\/\/\S+\/reset-password\?token=\S+/)
      assert.ok(link, mail.body)
      return new URL(link[0])
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no reset mail to ${email} in the outbox`)
}

describe('password reset', () => {
  test('forgot password, the mailed link, a new password, and a login with it', async () => {
    const username = uniqueName('forgot')
    const email = `${username}@example.com`
    const { res } = await api('/api/auth/register', {
      method: 'POST',
      body: {
        username,
        email,
        password: 'old-secret-1',
        confirmPassword: 'old-secret-1',
        fullName: 'Forgetful Person',
      },
    })
    assert.equal(res.status, 201)

    const page = await app.newPage()
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.waitForURL('**/forgot-password')
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page
      .getByText(
        "If an account exists for that email, we've sent a link to reset your password. It expires in one hour.",
      )
      .waitFor()

    const link = await resetLinkFor(email)
    assert.equal(link.origin, app.baseURL, 'the link points at this server (--public-url defaults to --http-addr)')
    await page.goto(link.pathname + link.search)
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor()
    await page.getByLabel('New password', { exact: true }).fill('new-secret-2')
    await page.getByLabel('Confirm new password').fill('new-secret-2')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.waitForURL((url) => url.pathname === '/login')
    await page.getByText('Password changed', { exact: true }).waitFor()

    // The old password no longer works; the new one does.
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Password').fill('old-secret-1')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByText('Invalid username or password', { exact: true }).waitFor()
    await page.getByLabel('Password').fill('new-secret-2')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/dashboard')
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor()

    // The link worked once.
    await page.goto(link.pathname + link.search)
    await page.getByLabel('New password', { exact: true }).fill('third-secret-3')
    await page.getByLabel('Confirm new password').fill('third-secret-3')
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.getByText('This reset link is invalid or has expired. Ask for a new one.').waitFor()
    await page.getByRole('link', { name: 'Ask for a new link' }).click()
    await page.waitForURL('**/forgot-password')
    await page.context().close()
  })

  test('an unknown address gets the same answer', async () => {
    const page = await app.newPage()
    await page.goto('/forgot-password')
    await page.getByLabel('Email').fill(`${uniqueName('ghost')}@example.com`)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page
      .getByText(
        "If an account exists for that email, we've sent a link to reset your password. It expires in one hour.",
      )
      .waitFor()
    await page.context().close()
  })
})
