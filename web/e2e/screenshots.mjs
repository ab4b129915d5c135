// Takes full-page screenshots of the main screens at desktop and phone width,
// for a person to look at (not a test). Usage:
//   node e2e/screenshots.mjs [baseURL] [outDir] [path...]
// Paths default to the public screens; pass /dashboard etc. with a session
// by setting NAMEPORT_LOGIN=username:password.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath } from './browser.mjs'

const [baseURL = 'http://127.0.0.1:4173', outDir = 'e2e/screenshots', ...paths] = process.argv.slice(2)
const targets = paths.length
  ? paths
  : ['/', '/login', '/register', '/register?type=registrar&tier=premium', '/no-such-page']

mkdirSync(outDir, { recursive: true })
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  for (const [label, viewport] of [
    ['1280', { width: 1280, height: 800 }],
    ['375', { width: 375, height: 740 }],
  ]) {
    const context = await browser.newContext({ viewport, baseURL })
    const page = await context.newPage()
    if (process.env.NAMEPORT_LOGIN) {
      const [username, password] = process.env.NAMEPORT_LOGIN.split(':')
      await page.goto('/login')
      await page.getByLabel('Username').fill(username)
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL(/dashboard/)
    }
    for (const path of targets) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(300)
      const name = (path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home') + `-${label}.png`
      await page.screenshot({ path: join(outDir, name), fullPage: true })
      console.log(join(outDir, name))
    }
    await context.close()
  }
} finally {
  await browser.close()
}
