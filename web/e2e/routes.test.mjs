// Every route of the spec's route table (section 2), at desktop and phone
// width, as the user who would see it: no sideways scrolling on a phone, no
// serious or critical axe-core violation, and a screenshot of each for a
// person to look at (e2e/artifacts/, not committed).
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })
const require = createRequire(import.meta.url)
// Injected from node_modules: no network while the tests run.
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const artifactsDir = resolve(dirname(fileURLToPath(import.meta.url)), 'artifacts')
mkdirSync(artifactsDir, { recursive: true })

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
]
const DEMO_PASSWORD = 'demo1234'

/** A page of the given width in its own context, logged in as `username` (or a visitor). */
async function newPage(viewport, username) {
  const page = await app.newPage()
  await page.setViewportSize(viewport)
  const context = page.context()
  if (username) {
    const res = await context.request.post('/api/auth/login', { data: { username, password: DEMO_PASSWORD } })
    assert.equal(res.status(), 200, `login as ${username}: ${await res.text()}`)
  }
  return page
}

/** Deposits into demo's wallet and registers a fresh name; returns its id. */
async function registerDemoDomain() {
  const context = (await newPage(WIDTHS[0], 'demo')).context()
  const { request } = context
  try {
    const deposit = await request.post('/api/wallet/deposit', { data: { amount: 20, paymentMethod: 'credit_card' } })
    assert.ok(deposit.ok(), `deposit: ${await deposit.text()}`)
    const registration = await request.post('/api/domains', {
      data: { name: uniqueName('a11y-'), extension: '.inf.nz', years: 1, autoRenew: true },
      headers: { 'Idempotency-Key': uniqueName('a11y-key-') },
    })
    assert.ok(registration.ok(), `register: ${await registration.text()}`)
    return (await registration.json()).data.domain.id
  } finally {
    await context.close()
  }
}

/** One line per failing node, so a report names the rule, the element and the fix. */
function describeViolations(violations) {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .map((n) => `    - ${n.target.join(' ')}\n      ${n.failureSummary.replace(/\n/g, '\n      ')}`)
        .join('\n')
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`
    })
    .join('\n')
}

let domainId
const routes = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'register', path: '/register' },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'reset-password', path: '/reset-password' },
  { name: 'verify-email', path: '/verify-email?token=abc' },
  { name: 'email-forwarding-confirm', path: '/email-forwarding/confirm?token=abc' },
  { name: 'dashboard', path: '/dashboard', user: 'demo' },
  { name: 'domain-management', path: () => `/domain-management/${domainId}`, user: 'demo' },
  {
    name: 'domain-management-email-forwarding',
    path: () => `/domain-management/${domainId}?tab=email-forwarding`,
    user: 'demo',
  },
  {
    name: 'domain-management-domain-forwarding',
    path: () => `/domain-management/${domainId}?tab=domain-forwarding`,
    user: 'demo',
  },
  { name: 'wallet', path: '/wallet', user: 'demo' },
  { name: 'registrar-dashboard', path: '/registrar-dashboard', user: 'demo-registrar' },
  { name: 'registrar-dashboard-api', path: '/registrar-dashboard?tab=api', user: 'demo-registrar' },
  { name: 'admin-dashboard', path: '/admin-dashboard', user: 'demo-admin' },
  { name: 'premium-domains', path: '/premium-domains' },
  { name: 'payment-demo', path: '/payment-demo', user: 'demo' },
  { name: 'payment-success', path: '/payment-success', user: 'demo' },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'page-cookies', path: '/pages/cookies' },
  {
    name: 'admin-pages-edit',
    path: '/admin-dashboard',
    user: 'demo-admin',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Pages' }).click()
      await page.getByRole('button', { name: 'Edit Privacy Policy' }).click()
      await page.getByRole('dialog', { name: 'Edit Privacy Policy' }).waitFor()
    },
  },
  // Open states, so axe sees the panels and dialogs too.
  {
    name: 'home-menu-open',
    path: '/',
    widths: [375],
    open: async (page) => {
      await page.getByRole('button', { name: 'Open menu' }).press('Enter')
      await page.getByRole('navigation', { name: 'Mobile' }).waitFor()
    },
  },
  {
    name: 'dashboard-register-dialog',
    path: '/dashboard',
    user: 'demo',
    open: async (page) => {
      await page.getByRole('button', { name: 'Register Domain' }).click()
      await page.getByRole('dialog', { name: 'Register a domain' }).waitFor()
    },
  },
  {
    name: 'domain-management-add-record',
    path: () => `/domain-management/${domainId}`,
    user: 'demo',
    open: async (page) => {
      await page.getByRole('button', { name: 'Add Record' }).first().click()
      await page.getByRole('dialog', { name: 'Add DNS record' }).waitFor()
    },
  },
]

describe('every route at 1280 and 375 px', () => {
  before(async () => {
    domainId = await registerDemoDomain()
  })

  for (const route of routes) {
    for (const viewport of WIDTHS.filter((w) => !route.widths || route.widths.includes(w.width))) {
      test(`${route.name} at ${viewport.width}px`, async () => {
        const page = await newPage(viewport, route.user)
        try {
          const path = typeof route.path === 'function' ? route.path() : route.path
          await page.goto(path)
          await page.waitForLoadState('networkidle')
          await page.locator('main').first().waitFor()
          // Nothing still says it is loading (the dashboards' loading texts end in "...").
          await page.waitForFunction(() => !/Loading[^.]*\.\.\./.test(document.body.innerText))
          if (route.open) await route.open(page)
          await page.waitForTimeout(300)
          // An open dialog or panel is shot as the screen shows it; a page, whole.
          const file = join(artifactsDir, `${route.name}-${viewport.width}.png`)
          await page.screenshot({ path: file, fullPage: !route.open })

          if (viewport.width < 640) {
            const { scrollWidth, innerWidth } = await page.evaluate(() => ({
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
            }))
            assert.ok(scrollWidth <= innerWidth, `${path} scrolls sideways: ${scrollWidth}px wide in ${innerWidth}px`)
          }

          // Evaluated through the debugger, not a <script> tag, so the
          // page's Content-Security-Policy (no inline scripts) stays on.
          await page.evaluate(axeSource)
          const violations = await page.evaluate(async () => {
            const result = await window.axe.run(document, { resultTypes: ['violations'] })
            return result.violations
              .filter((v) => v.impact === 'serious' || v.impact === 'critical')
              .map(({ id, impact, help, helpUrl, nodes }) => ({
                id,
                impact,
                help,
                helpUrl,
                nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
              }))
          })
          assert.equal(
            violations.length,
            0,
            `${path} at ${viewport.width}px has serious or critical axe violations:\n${describeViolations(violations)}`,
          )
        } finally {
          await page.context().close()
        }
      })
    }
  }
})

describe('keyboard', () => {
  test('the phone menu opens with Enter, closes with Escape and gives focus back to its button', async () => {
    const page = await newPage(WIDTHS[1])
    try {
      await page.goto('/')
      const toggle = page.getByRole('button', { name: 'Open menu' })
      await toggle.focus()
      await page.keyboard.press('Enter')
      const menu = page.getByRole('navigation', { name: 'Mobile' })
      await menu.waitFor()
      await page.keyboard.press('Tab')
      assert.equal(await menu.getByRole('link', { name: 'Home' }).evaluate((el) => el === document.activeElement), true)
      await page.keyboard.press('Escape')
      await menu.waitFor({ state: 'detached' })
      assert.equal(await toggle.evaluate((el) => el === document.activeElement), true)
    } finally {
      await page.context().close()
    }
  })

  test('a dialog takes focus, keeps Tab inside, and Escape gives focus back', async () => {
    const page = await newPage(WIDTHS[0], 'demo')
    try {
      await page.goto('/dashboard')
      const opener = page.getByRole('button', { name: 'Register Domain' })
      await opener.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'Register a domain' })
      await dialog.waitFor()
      for (let i = 0; i < 8; i++) {
        await page.keyboard.press('Tab')
        assert.equal(
          await dialog.evaluate((el) => el.contains(document.activeElement)),
          true,
          `Tab ${i + 1} left the dialog`,
        )
      }
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
      // Radix moves focus back a tick after the dialog goes.
      await page.waitForFunction((el) => el === document.activeElement, await opener.elementHandle(), { timeout: 2000 })
    } finally {
      await page.context().close()
    }
  })
})
