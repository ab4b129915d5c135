// Registering names and the wallet, clicked through in Chromium against a
// real server started with --demo (wallets start empty; .inf.nz costs $8).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { uniqueName, useApp, verifyEmail } from './harness.mjs'

const app = useApp({ before, after })
const PASSWORD = 'correct-horse-9'

async function signUp(page, { username, type = 'user', path }) {
  await page.goto(path ?? (type === 'registrar' ? '/register?type=registrar' : '/register'))
  await fillSignUp(page, username)
}

async function fillSignUp(page, username) {
  await page.getByLabel('Full name').fill(`Test ${username}`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.waitForURL((url) => url.pathname !== '/register')
  await verifyEmail(page, `${username}@example.com`)
}

async function searchLanding(page, name, extension = '.inf.nz') {
  const form = page.getByRole('search', { name: 'Domain search' })
  await form.getByLabel('Domain name').fill(name)
  await form.getByLabel('Extension').selectOption(extension)
  await form.getByRole('button', { name: 'Search' }).click()
  const result = page.getByRole('region', { name: 'Search result' })
  await result.getByText(`${name}${extension}`, { exact: true }).waitFor()
  return result
}

/** Deposits on the wallet's Deposit Funds tab (already open) and checks the success screen. */
async function deposit(page, amount) {
  const field = page.getByLabel('Amount (USD)')
  await field.fill(String(amount))
  const shown = `$${amount.toFixed(2)}`
  await page.getByRole('button', { name: `Deposit ${shown}` }).click()
  await page.getByText(`${shown} has been added to your wallet`, { exact: true }).waitFor()
}

function balanceCard(page) {
  return page.getByRole('region', { name: 'Current balance' })
}

function transactionRows(page) {
  return page.getByRole('table', { name: 'Transactions' }).locator('tbody tr')
}

describe('registering names and the wallet', () => {
  test('deposit, register a name, see it on the dashboard and in the wallet, filter transactions', async () => {
    const page = await app.newPage()
    const username = uniqueName('buyer')
    await signUp(page, { username })
    await page.waitForURL('**/dashboard')

    // Deposit $50 from the wallet.
    await page.getByRole('link', { name: 'Wallet' }).click()
    await page.waitForURL('**/wallet')
    // The balance comes first; the totals follow.
    await balanceCard(page).getByText('$0.00', { exact: true }).first().waitFor()
    await page.getByRole('tab', { name: 'Deposit Funds' }).click()
    await page.waitForURL('**/wallet?tab=deposit')
    assert.equal(await page.getByLabel('Amount (USD)').inputValue(), '50')
    await deposit(page, 50)
    await page.getByRole('button', { name: 'Back to Overview' }).click()
    await balanceCard(page).getByText('$50.00', { exact: true }).first().waitFor()

    // Search a free .inf.nz name and register it for a year.
    const label = uniqueName('e2e-name-')
    await page.goto('/')
    const result = await searchLanding(page, label)
    await result.getByRole('button', { name: 'Register Now' }).click()
    const dialog = page.getByRole('dialog', { name: 'Register domain' })
    await dialog.waitFor()
    assert.equal(await dialog.getByLabel('Registration period').inputValue(), '1')
    assert.equal(await dialog.getByLabel('Auto-renew').isChecked(), true)
    await dialog.getByText('$42.00 will remain in your wallet.').waitFor()
    assert.match(await dialog.locator('dl').textContent(), /Total.*\$8\.00.*Wallet balance\$50\.00/)
    await dialog.getByRole('button', { name: 'Register', exact: true }).click()

    await page.waitForURL(/\/domain-management\/\d+$/)
    await page.getByText('Domain registered', { exact: true }).waitFor()
    await page.getByText(new RegExp(`^${label}\\.inf\\.nz is yours until `)).waitFor()
    await page.getByRole('heading', { name: `${label}.inf.nz`, level: 1 }).waitFor()

    // Domain Settings: the info and the auto-renew switch.
    await page.getByRole('tab', { name: 'Domain Settings' }).click()
    const settings = page.getByRole('tabpanel', { name: 'Domain Settings' })
    await settings.getByText('Transfer lock is enabled', { exact: false }).waitFor()
    await settings.getByText('$8.00', { exact: true }).waitFor()
    await settings.getByRole('button', { name: 'Disable auto-renewal' }).click()
    await page.getByText('Auto-renewal disabled', { exact: true }).waitFor()
    await settings.getByRole('button', { name: 'Enable auto-renewal' }).waitFor()

    // The dashboard lists it.
    await page.getByRole('link', { name: 'Back to Dashboard' }).click()
    await page.waitForURL('**/dashboard')
    const row = page.getByRole('row').filter({ hasText: `${label}.inf.nz` })
    await row.waitFor()
    await row.getByText('Standard', { exact: true }).waitFor()
    await row.getByText('Disabled', { exact: true }).waitFor()

    // The wallet: $42.00 left and the purchase listed.
    await page.goto('/wallet')
    await balanceCard(page).getByText('$42.00', { exact: true }).first().waitFor()
    const recent = page.getByRole('region', { name: 'Recent transactions' })
    await recent.getByText(`Registration of ${label}.inf.nz for 1 year`, { exact: true }).waitFor()
    await recent.getByText('Deposit by credit card', { exact: false }).waitFor()

    // Transactions: the type and status filters, then Reset.
    await recent.getByRole('button', { name: 'View All' }).click()
    await page.waitForURL('**/wallet?tab=transactions')
    await transactionRows(page).first().waitFor()
    assert.equal(await transactionRows(page).count(), 2)
    await page.getByLabel('Type').selectOption({ label: 'Deposits' })
    assert.equal(await transactionRows(page).count(), 1)
    assert.match(await transactionRows(page).first().textContent(), /Deposit.*Credit Card.*Completed.*\+\$50\.00/)
    await page.getByLabel('Type').selectOption({ label: 'Purchases' })
    assert.equal(await transactionRows(page).count(), 1)
    assert.match(await transactionRows(page).first().textContent(), /Registration of .*Wallet.*Completed.*−\$8\.00/)
    await page.getByLabel('Type').selectOption({ label: 'All' })
    await page.getByLabel('Status').selectOption({ label: 'Pending' })
    await page.getByText('No transactions match your filters', { exact: true }).waitFor()
    assert.equal(await transactionRows(page).count(), 0)
    await page.getByRole('button', { name: 'Reset', exact: true }).click()
    await transactionRows(page).nth(1).waitFor()
    assert.equal(await transactionRows(page).count(), 2)
    await page.getByLabel('Search').fill(label)
    assert.equal(await transactionRows(page).count(), 1)
    await page.context().close()
  })

  test('a visitor signs up from Register Now, adds the missing funds and comes back to register', async () => {
    const page = await app.newPage()
    const label = uniqueName('e2e-visit-')
    await page.goto('/')
    const result = await searchLanding(page, label)
    await result.getByRole('link', { name: 'Register Now' }).click()
    await page.waitForURL((url) => url.pathname === '/register')
    assert.equal(new URL(page.url()).searchParams.get('redirect'), `/?name=${label}&extension=.inf.nz`)

    await fillSignUp(page, uniqueName('visitor'))
    // Back on the landing page, which searches the name again.
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('name') === label)
    const again = page.getByRole('region', { name: 'Search result' })
    await again.getByText(`${label}.inf.nz`, { exact: true }).waitFor()
    await again.getByRole('button', { name: 'Register Now' }).click()

    // An empty wallet: the dialog says what is missing and offers Add funds.
    const dialog = page.getByRole('dialog', { name: 'Register domain' })
    await dialog.getByText('Your balance is short by $8.00.', { exact: false }).waitFor()
    assert.equal(await dialog.getByRole('button', { name: 'Register', exact: true }).isDisabled(), true)
    await dialog.getByRole('link', { name: 'Add funds' }).click()
    await page.waitForURL((url) => url.pathname === '/wallet')
    const query = new URL(page.url()).searchParams
    assert.equal(query.get('tab'), 'deposit')
    assert.equal(query.get('amount'), '8')
    assert.equal(query.get('return'), `/?name=${label}&extension=.inf.nz`)
    assert.equal(await page.getByLabel('Amount (USD)').inputValue(), '8')
    await deposit(page, 8)

    await page.getByRole('link', { name: 'Continue registration' }).click()
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('name') === label)
    await page.getByRole('region', { name: 'Search result' }).getByRole('button', { name: 'Register Now' }).click()
    const retry = page.getByRole('dialog', { name: 'Register domain' })
    await retry.getByText('$0.00 will remain in your wallet.').waitFor()
    await retry.getByRole('button', { name: 'Register', exact: true }).click()
    await page.waitForURL(/\/domain-management\/\d+$/)
    await page.getByRole('heading', { name: `${label}.inf.nz`, level: 1 }).waitFor()
    await page.context().close()
  })

  test("a 402 from the server: its message, and Add funds for the server's shortfall", async () => {
    const page = await app.newPage()
    const username = uniqueName('short')
    await signUp(page, { username })
    await page.waitForURL('**/dashboard')
    await page.goto('/wallet?tab=deposit')
    await deposit(page, 10)

    // The dialog reads a balance of $10, enough for $8...
    const label = uniqueName('e2e-402-')
    await page.goto('/')
    const result = await searchLanding(page, label)
    await result.getByRole('button', { name: 'Register Now' }).click()
    const dialog = page.getByRole('dialog', { name: 'Register domain' })
    await dialog.getByText('$2.00 will remain in your wallet.').waitFor()
    // ...then the same account spends $8 elsewhere: $2 are left.
    const other = await page.request.post('/api/domains', {
      data: { name: uniqueName('e2e-other-'), extension: '.inf.nz' },
    })
    assert.equal(other.status(), 201, await other.text())

    await dialog.getByRole('button', { name: 'Register', exact: true }).click()
    await dialog
      .getByRole('alert')
      .getByText(`Insufficient funds: this registration costs $8.00 and your balance is $2.00. Add $6.00 to continue.`)
      .waitFor()
    await dialog.getByRole('link', { name: 'Add funds' }).click()
    await page.waitForURL((url) => url.pathname === '/wallet')
    assert.equal(new URL(page.url()).searchParams.get('amount'), '6')
    await page.context().close()
  })

  test('the dashboard Register Domain dialog searches, and a taken name is refused', async () => {
    const page = await app.newPage()
    await signUp(page, { username: uniqueName('dash') })
    await page.waitForURL('**/dashboard')
    await page.getByRole('button', { name: 'Register Domain' }).click()
    const dialog = page.getByRole('dialog', { name: 'Register a domain' })
    await dialog.getByLabel('Domain name').fill('-bad-')
    await dialog.getByRole('button', { name: 'Search' }).click()
    await dialog.getByText(/can only contain letters, numbers, and hyphens/).waitFor()
    // home.inf.nz is a reserved premium name in the demo catalogue.
    await dialog.getByLabel('Domain name').fill('home')
    await dialog.getByRole('button', { name: 'Search' }).click()
    const result = dialog.getByRole('region', { name: 'Search result' })
    await result.getByRole('button', { name: 'Not Available' }).waitFor()
    const label = uniqueName('e2e-dash-')
    await dialog.getByLabel('Domain name').fill(label)
    await dialog.getByLabel('Extension').selectOption('.orgn.uk')
    await dialog.getByRole('button', { name: 'Search' }).click()
    await result.getByText(`${label}.orgn.uk`, { exact: true }).waitFor()
    await result.getByRole('button', { name: 'Continue' }).click()
    const register = page.getByRole('dialog', { name: 'Register domain' })
    // An empty wallet (the price of a long .orgn.uk name may carry a promotion).
    await register.getByText(/Your balance is short by \$\d+\.\d\d\./).waitFor()
    await register.getByRole('button', { name: 'Cancel' }).click()
    await register.waitFor({ state: 'detached' })
    await page.context().close()
  })

  test('a registrar sees the wallet badge, the domain count and the API key', async () => {
    const page = await app.newPage()
    await signUp(page, { username: uniqueName('regw'), type: 'registrar' })
    await page.waitForURL('**/registrar-dashboard')
    const walletButton = page.getByRole('link', { name: /^Wallet/ })
    await walletButton.getByText('$0.00', { exact: true }).waitFor()
    const total = page.getByText('Total Domains', { exact: true }).locator('..')
    await total.getByText('0', { exact: true }).waitFor()

    await page.getByRole('tab', { name: 'API Access' }).click()
    await page.waitForURL('**/registrar-dashboard?tab=api')
    const apiKey = await page.getByRole('textbox', { name: 'API key' }).inputValue()
    assert.ok(apiKey.length >= 16, `API key ${apiKey}`)

    // The wallet's registrar shortcut leads back to this tab.
    await walletButton.click()
    await page.waitForURL('**/wallet')
    await page.getByRole('tab', { name: 'Deposit Funds' }).click()
    await deposit(page, 20)
    await page.getByRole('region', { name: 'Quick Actions' }).getByRole('link', { name: 'API Settings' }).click()
    await page.waitForURL('**/registrar-dashboard?tab=api')
    await walletButton.getByText('$20.00', { exact: true }).waitFor()
    await page.context().close()
  })

  test('changing the password: the new one logs in, the old one no longer does', async () => {
    const page = await app.newPage()
    const username = uniqueName('pwd')
    const newPassword = 'battery-staple-7'
    await signUp(page, { username })
    await page.waitForURL('**/dashboard')
    await page.getByRole('tab', { name: 'Account Settings' }).click()
    assert.equal(await page.getByLabel('Username').inputValue(), username)
    await page.getByRole('button', { name: 'Change Password' }).click()
    const dialog = page.getByRole('dialog', { name: 'Change password' })
    await dialog.getByLabel('Current password').fill('wrong-password')
    await dialog.getByLabel('New password', { exact: true }).fill(newPassword)
    await dialog.getByLabel('Confirm new password').fill(newPassword)
    await dialog.getByRole('button', { name: 'Change Password' }).click()
    await page.getByText('Password change failed', { exact: true }).waitFor()
    await page.getByText('Current password is incorrect', { exact: true }).waitFor()

    await dialog.getByLabel('Current password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Change Password' }).click()
    await page.getByText('Password changed', { exact: true }).waitFor()
    await page.getByText('Your other sessions have been logged out.', { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    // This session stays logged in.
    await page.reload()
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor()

    await page.getByRole('banner').getByRole('link', { name: 'Log out' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.goto('/login')
    await page.getByLabel('Username').fill(username)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.getByText('Login failed', { exact: true }).waitFor()
    assert.equal(new URL(page.url()).pathname, '/login')
    await page.getByLabel('Password').fill(newPassword)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL('**/dashboard')
    await page.context().close()
  })
})
