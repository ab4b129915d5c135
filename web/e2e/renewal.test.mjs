// Renewing a domain by hand, clicked through in Chromium against a real server
// started with --demo (wallets start empty; .inf.nz costs $8 a year and renews
// at the same price for a year).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { deposit, signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const DAY_MS = 24 * 60 * 60 * 1000
const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

/** Searches NAME.inf.nz on the landing page and registers it for a year; ends on its page. */
async function register(page, label) {
  await page.goto('/')
  const form = page.getByRole('search', { name: 'Domain search' })
  await form.getByLabel('Domain name').fill(label)
  await form.getByLabel('Extension').selectOption('.inf.nz')
  await form.getByRole('button', { name: 'Search' }).click()
  const result = page.getByRole('region', { name: 'Search result' })
  await result.getByText(`${label}.inf.nz`, { exact: true }).waitFor()
  await result.getByRole('button', { name: 'Register Now' }).click()
  const dialog = page.getByRole('dialog', { name: 'Register domain' })
  await dialog.getByRole('button', { name: 'Register', exact: true }).click()
  await page.waitForURL(/\/domain-management\/\d+$/)
  await page.getByRole('heading', { name: `${label}.inf.nz`, level: 1 }).waitFor()
}

/** The value of a summary row ("New expiry", "Price" …) of the renew dialog. */
async function summaryValue(dialog, label) {
  // The inner locator of `has` is matched inside each row, so it starts from the page.
  const row = dialog.locator('dl > div').filter({ has: dialog.page().getByText(label, { exact: true }) })
  return (await row.locator('dd').textContent()).trim()
}

/** A shown date ("Nov 22, 2027") moved on by whole days, shown the same way. */
function addYears(shown, years) {
  const date = new Date(Date.parse(shown))
  date.setHours(12) // away from midnight, so a daylight-saving hour cannot change the day
  date.setFullYear(date.getFullYear() + years)
  return dateFormat.format(date)
}

describe('renewing a domain', () => {
  test('deposit, register, renew from the domain page: one more period and $8 less', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('renewer'))
    await deposit(page, 50)
    const label = uniqueName('e2e-renew-')
    await register(page, label)

    // The page: Active, the expiry date, auto-renew on.
    const header = page.locator('dl').first()
    await header.getByText('Active', { exact: true }).waitFor()
    const expiresDd = header
      .locator('div')
      .filter({ has: page.getByText('Expires', { exact: true }) })
      .locator('dd')
    const oldExpiry = (await expiresDd.textContent()).trim()
    assert.equal(
      (
        await header
          .locator('div')
          .filter({ has: page.getByText('Auto-renew', { exact: true }) })
          .locator('dd')
          .textContent()
      ).trim(),
      'On',
    )
    assert.equal(await page.getByText('This domain has expired').count(), 0)

    // The dialog: period, dates, price, balance.
    await page.getByRole('button', { name: 'Renew', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Renew domain' })
    await dialog.waitFor()
    await dialog.getByText('$34.00 will remain in your wallet.').waitFor()
    assert.equal(await summaryValue(dialog, 'Renewal period'), '1 year')
    assert.equal(await summaryValue(dialog, 'Current expiry'), oldExpiry)
    const newExpiry = addYears(oldExpiry, 1)
    assert.equal(await summaryValue(dialog, 'New expiry'), newExpiry)
    assert.equal(await summaryValue(dialog, 'Price'), '$8.00')
    assert.equal(await summaryValue(dialog, 'Wallet balance'), '$42.00')
    await dialog.getByRole('button', { name: 'Renew for $8.00' }).click()

    // Done: the toast, the new date on the page, the dialog gone.
    await page.getByText('Domain renewed', { exact: true }).waitFor()
    await page.getByText(`${label}.inf.nz now expires on ${newExpiry}.`, { exact: true }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await expiresDd.getByText(newExpiry, { exact: true }).waitFor()

    // The dashboard lists the new date; the wallet has $8 less and the renewal in its history.
    await page.getByRole('link', { name: 'Back to Dashboard' }).click()
    await page.waitForURL('**/dashboard')
    const row = page.getByRole('row').filter({ hasText: `${label}.inf.nz` })
    await row.getByText(newExpiry, { exact: true }).waitFor()
    await row.getByText('Active', { exact: true }).waitFor()

    await page.goto('/wallet')
    await page.getByRole('region', { name: 'Current balance' }).getByText('$34.00', { exact: true }).first().waitFor()
    await page
      .getByRole('region', { name: 'Recent transactions' })
      .getByText(new RegExp(`^Renewal of ${label}\\.inf\\.nz until `))
      .waitFor()
    await page.context().close()
  })

  test('short of funds, the dialog says by how much and leads to the deposit form and back', async () => {
    const page = await app.newPage()
    await signUp(page, uniqueName('shortie'))
    await deposit(page, 10)
    const label = uniqueName('e2e-short-')
    await register(page, label)
    const domainPath = new URL(page.url()).pathname

    await page.getByRole('button', { name: 'Renew', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Renew domain' })
    await dialog.getByText('Your balance is short by $6.00.', { exact: false }).waitFor()
    assert.equal(await dialog.getByRole('button', { name: 'Renew for $8.00' }).isDisabled(), true)
    await dialog.getByRole('link', { name: 'Add funds' }).click()
    await page.waitForURL((url) => url.pathname === '/wallet' && url.searchParams.get('tab') === 'deposit')
    const url = new URL(page.url())
    assert.equal(url.searchParams.get('amount'), '6')
    assert.equal(url.searchParams.get('return'), domainPath)
    await page.context().close()
  })
})
