// Takes full-page screenshots of the main screens at desktop and phone width,
// for a person to look at (not a test). Usage:
//   node e2e/screenshots.mjs [baseURL] [outDir] [path...]
// Paths default to the public screens; pass /dashboard etc. with a session
// by setting NAMEPORT_LOGIN=username:password. A target `search:NAME:.EXT`
// searches NAME on the landing page and shots the hero with its result card.
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
      if (path.startsWith('search:')) {
        const [, domainName, extension = '.inf.nz'] = path.split(':')
        await page.goto('/')
        const form = page.getByRole('search', { name: 'Domain search' })
        await form.getByLabel('Domain name').fill(domainName)
        await form.getByLabel('Extension').selectOption(extension)
        await form.getByRole('button', { name: 'Search' }).click()
        await page.getByRole('region', { name: 'Search result' }).or(page.getByRole('alert')).first().waitFor()
        await page.waitForTimeout(300)
        const file = join(outDir, `search_${domainName || 'empty'}${extension.replace(/\./g, '_')}-${label}.png`)
        await page.locator('main section').first().screenshot({ path: file })
        console.log(file)
        continue
      }
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
