// Every tab of the admin dashboard on a 375 px phone, in Chromium against a
// real `nameport serve --demo`: whatever an admin can press or type into is
// on the screen, not off its right edge inside a table that scrolls sideways
// (issue 26, item 8). Set NAMEPORT_SHOTS to a folder to keep a screenshot
// of each tab.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })
const shots = process.env.NAMEPORT_SHOTS
const WIDTH = 375

describe('admin dashboard on a phone', () => {
  test('every tab keeps its actions and fields on the screen', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: WIDTH, height: 800 })
    await page.goto('/login')
    await page.getByLabel('Username').fill('demo-admin')
    await page.getByLabel('Password').fill('demo1234')
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((url) => url.pathname !== '/login')
    await page.goto('/admin-dashboard')
    await page.getByRole('tab', { name: 'Premium Domains' }).waitFor()

    const names = await page.getByRole('tablist').first().getByRole('tab').allTextContents()
    assert.ok(names.length >= 8, `the admin tabs: ${names.join(', ')}`)
    for (const name of names) {
      await page.getByRole('tab', { name, exact: true }).click()
      const panel = page.getByRole('tabpanel', { name, exact: true })
      await panel.waitFor()
      // Loaded: no spinner or "Loading..." left in the panel.
      await page.waitForFunction(
        (label) => {
          const el = [...document.querySelectorAll('[role="tabpanel"]')].find(
            (p) => p.getAttribute('data-state') === 'active',
          )
          return (
            el && el.textContent.trim() !== '' && !/Loading/.test(el.textContent) && !el.querySelector('.animate-spin')
          )
        },
        name,
        { timeout: 15_000 },
      )
      // Lists with something in them: the common settings, a gateway.
      if (name === 'Site Settings') {
        await panel.getByRole('button', { name: 'Quick Setup' }).click()
        await panel.getByText('primary_color', { exact: true }).waitFor()
      }
      if (name === 'Payment Gateways' && (await panel.getByRole('switch').count()) === 0) {
        await panel.getByLabel('Add a gateway').selectOption({ label: 'Bank Transfer' })
        await panel.getByRole('button', { name: 'Add Gateway' }).click()
        const form = panel.getByRole('form', { name: 'Configure Bank Transfer' })
        await form
          .getByRole('button', { name: 'Cancel' })
          .or(form.getByRole('button', { name: 'Close' }))
          .first()
          .waitFor()
      }
      if (shots)
        await page.screenshot({
          path: join(shots, `admin-${name.replace(/\W+/g, '-').toLowerCase()}-375.png`),
          fullPage: true,
        })
      const offScreen = await panel.evaluate((root, width) => {
        const controls = root.querySelectorAll(
          'button, a[href], input:not([type="hidden"]), select, textarea, [role="switch"]',
        )
        const out = []
        for (const el of controls) {
          const box = el.getBoundingClientRect()
          const style = getComputedStyle(el)
          if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue
          // Visually hidden inputs inside a visible label (radio cards) are 1 px.
          if (box.width <= 1 && box.height <= 1) continue
          if (box.left < -0.5 || box.right > width + 0.5) {
            out.push(
              `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') || el.textContent || el.name || '').trim().slice(0, 40)}" at ${Math.round(box.left)}–${Math.round(box.right)}`,
            )
          }
        }
        return out
      }, WIDTH)
      assert.deepEqual(offScreen, [], `${name}: controls off the screen`)
      const scrollWidth = await page.evaluate(() => document.scrollingElement.scrollWidth)
      assert.ok(scrollWidth <= WIDTH, `${name}: the page scrolls sideways (${scrollWidth} px)`)
    }
    await page.context().close()
  })
})
