// The admin dashboard's Users and Statistics tabs, in Chromium against a real
// `nameport serve --demo`: an admin disables an account, which then cannot
// log in; the Statistics tab shows its KPI cards; both work on a phone.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

async function login(page, username, password) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

async function loginDemoAdmin(page) {
  await login(page, 'demo-admin', 'demo1234')
  await page.waitForURL((url) => url.pathname !== '/login')
}

describe('the way in', () => {
  test('an admin lands on /dashboard and finds the admin area from its card and from the header', async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    await page.waitForURL('**/dashboard')
    await page.getByRole('region', { name: 'Admin area' }).getByRole('link', { name: 'Open admin dashboard' }).click()
    await page.waitForURL('**/admin-dashboard')
    await page.goto('/')
    await page.getByRole('banner').getByRole('link', { name: 'Admin' }).first().click()
    await page.waitForURL('**/admin-dashboard')
    await page.context().close()
  })

  test('on a phone the menu has the admin area', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    await page.getByRole('button', { name: 'Open menu' }).click()
    await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Admin' }).click()
    await page.waitForURL('**/admin-dashboard')
    await page.context().close()
  })
})

describe('Users tab', () => {
  test('an admin disables an account, which then cannot log in, and enables it again', async () => {
    // A fresh account, signed up through the API.
    const signUp = await app.newPage()
    const res = await signUp.request.post('/api/auth/register', {
      data: {
        username: 'victor',
        email: 'victor@example.com',
        password: 'secret1',
        confirmPassword: 'secret1',
        fullName: 'Victor',
      },
    })
    assert.equal(res.status(), 201)
    await signUp.context().close()

    const page = await app.newPage()
    await loginDemoAdmin(page)
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Users' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Users' })
    await panel.getByRole('searchbox', { name: 'Search accounts' }).fill('victor')
    const row = panel.getByRole('listitem', { name: 'victor' })
    await row.waitFor()
    await panel.getByText('1 account ·', { exact: false }).waitFor()
    await row.getByRole('button', { name: 'Disable' }).click()
    await page.getByText('Account disabled', { exact: true }).waitFor()
    await row.getByText('Disabled', { exact: true }).waitFor()
    // The change is in the audit log.
    await panel.getByRole('list', { name: 'Audit log' }).getByText('disabled account').first().waitFor()

    const victor = await app.newPage()
    await login(victor, 'victor', 'secret1')
    await victor.getByText('This account is disabled', { exact: true }).waitFor()
    assert.equal(new URL(victor.url()).pathname, '/login')

    await row.getByRole('button', { name: 'Enable' }).click()
    await page.getByText('Account enabled', { exact: true }).waitFor()
    await login(victor, 'victor', 'secret1')
    await victor.waitForURL((url) => url.pathname !== '/login')
    await victor.context().close()
    await page.context().close()
  })

  test('a registrar applies for Enterprise at sign-up; an admin approves it', async () => {
    // Sign-up through the form, from the partnership section's Contact Sales link.
    const name = uniqueName('bigco')
    const registrar = await app.newPage()
    await registrar.goto('/register?type=registrar&tier=enterprise')
    await registrar
      .getByRole('note')
      .getByText('your account starts on the Basic tier and your application stays pending', { exact: false })
      .waitFor()
    await registrar.getByLabel('Full name').fill(`Test ${name}`)
    await registrar.getByLabel('Username').fill(name)
    await registrar.getByLabel('Email').fill(`${name}@example.com`)
    await registrar.getByLabel('Password', { exact: true }).fill('secret1')
    await registrar.getByLabel('Confirm password').fill('secret1')
    await registrar.getByRole('button', { name: 'Create Account' }).click()
    await registrar.waitForURL('**/registrar-dashboard')
    await registrar.getByText('Partnership tier: Basic', { exact: true }).waitFor()
    await registrar.getByText('Your application for the Enterprise tier is pending review.', { exact: false }).waitFor()

    const page = await app.newPage()
    await loginDemoAdmin(page)
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Users' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Users' })
    const application = panel.getByRole('listitem', { name: `Application of ${name}` })
    await application.getByText('Enterprise', { exact: true }).waitFor()
    await application.getByRole('button', { name: 'Approve' }).click()
    await page.getByText(`${name} is now on the Enterprise tier.`, { exact: true }).waitFor()
    await application.waitFor({ state: 'detached' })
    await panel.getByRole('list', { name: 'Audit log' }).getByText('approved the tier application of').first().waitFor()
    await panel.getByRole('searchbox', { name: 'Search accounts' }).fill(name)
    const tier = panel.getByRole('combobox', { name: `Tier of ${name}` })
    await tier.waitFor()
    assert.equal(await tier.inputValue(), 'enterprise')

    // The registrar sees its new tier and its prices.
    await registrar.reload()
    await registrar.getByText('Partnership tier: Enterprise', { exact: true }).waitFor()
    const check = await registrar.request.get('/api/domains/check?name=' + name + '&extension=.inf.nz')
    assert.equal((await check.json()).data.price, 4)
    await registrar.context().close()
    await page.context().close()
  })

  test('the Statistics tab shows the KPI cards, also on a 375 px phone', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Statistics' }).click()
    const kpis = page.getByRole('region', { name: 'Key figures' })
    for (const title of ['Registrations', 'Revenue', 'Deposits', 'Premium sales', 'Active registrars', 'Accounts']) {
      await kpis.getByText(title, { exact: true }).waitFor()
    }
    await page.getByText('Registrations per day', { exact: true }).waitFor()
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(width <= 375, `the page is ${width} px wide`)
    await page.context().close()
  })
})
