// The contextual help, clicked through in Chromium against a real server
// started with --demo: the header toggle, a help icon on the wallet page and a
// follow-up question. Help is generated in the browser, so none of it may
// reach the server.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })

async function openWalletAsDemo(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname === '/dashboard')
  await page.goto('/wallet')
  await page.getByRole('heading', { name: 'Wallet', level: 1 }).waitFor()
}

/** The API requests the page makes while `run` runs. */
async function apiRequestsDuring(page, run) {
  const seen = []
  const record = (request) => new URL(request.url()).pathname.startsWith('/api/') && seen.push(request.url())
  page.on('request', record)
  try {
    await run()
  } finally {
    page.off('request', record)
  }
  return seen
}

describe('contextual help', () => {
  test('the header toggle hides and shows the help icons', async () => {
    const page = await app.newPage()
    await openWalletAsDemo(page)
    const header = page.getByRole('banner')
    const walletHelp = page.getByRole('button', { name: 'Help: Wallet' })
    await walletHelp.waitFor()

    const off = header.getByRole('button', { name: 'Disable AI help tooltips' })
    await off.hover()
    await header.getByRole('tooltip').filter({ hasText: 'Disable AI help tooltips' }).waitFor()
    await off.click()
    await walletHelp.waitFor({ state: 'detached' })

    const on = header.getByRole('button', { name: 'Enable AI help tooltips' })
    await on.click()
    await walletHelp.waitFor()
    await page.context().close()
  })

  test('a wallet help icon expands and answers a follow-up question without calling the server', async () => {
    const page = await app.newPage()
    await openWalletAsDemo(page)
    const requests = await apiRequestsDuring(page, async () => {
      await page.getByRole('button', { name: 'Help: Wallet' }).click()
      const panel = page.getByRole('dialog', { name: 'Help: Wallet' })
      await panel.getByText('Your prepaid balance').waitFor()

      await panel.getByRole('button', { name: 'Show More Details' }).click()
      await panel.getByText('Loading AI-powered explanation...').waitFor()
      await panel.getByText(/Deposit between \$1 and \$10,000 at a time/).waitFor()
      await panel.getByRole('button', { name: 'Show Less' }).waitFor()

      await panel.getByRole('button', { name: 'Ask a follow-up question' }).click()
      const question = panel.getByLabel('Your question')
      const ask = panel.getByRole('button', { name: 'Ask', exact: true })
      assert.equal(await ask.isDisabled(), true, 'Ask is disabled while the question is empty')
      await question.fill('Is there a processing fee?')
      await ask.click()
      assert.equal(await question.inputValue(), '', 'the question box is cleared after sending')
      await panel.getByText('Thinking...').waitFor()
      await panel.getByText(/There is no processing fee/).waitFor()
    })
    assert.deepEqual(requests, [], 'help makes no server request')
    await page.context().close()
  })

  test('on a 375 px phone the help panel fits the screen', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await openWalletAsDemo(page)
    await page.getByRole('button', { name: 'Help: Wallet' }).click()
    const panel = page.getByRole('dialog', { name: 'Help: Wallet' })
    await panel.getByRole('button', { name: 'Show More Details' }).click()
    await panel.getByText('Examples').waitFor()
    const box = await panel.boundingBox()
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `the panel spans ${box.x}..${box.x + box.width}`)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`)
    await page.context().close()
  })
})
