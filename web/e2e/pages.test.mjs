// Pages admins edit (issue 26, item 5), in Chromium against a real
// `nameport serve --demo`: a visitor follows the footer's Terms of Service
// to the page; an admin edits the Privacy Policy, unpublishes it (visitors
// then get the not-found page) and publishes it again; a page reads well
// at 375 px. Set NAMEPORT_SHOTS to a folder to keep screenshots.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { useApp } from './harness.mjs'

const app = useApp({ before, after })
const shots = process.env.NAMEPORT_SHOTS

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

describe('Pages', () => {
  test('a visitor follows the footer to the Terms of Service', async () => {
    // The served HTML already has the page's head, for crawlers and link previews.
    const res = await fetch(app.baseURL + '/pages/terms')
    assert.equal(res.status, 200)
    const html = await res.text()
    assert.match(html, /<title>Terms of Service · Nameport<\/title>/)
    assert.match(
      html,
      /<meta name="description" content="The terms that govern your use of this service and the domains you register here\." \/>/,
    )
    assert.match(html, /<meta property="og:title" content="Terms of Service · Nameport" \/>/)
    const page = await app.newPage()
    await page.goto('/')
    const footer = page.getByRole('contentinfo')
    assert.equal(await footer.getByRole('link', { name: 'API Documentation' }).getAttribute('href'), '/docs')
    assert.equal(await footer.getByRole('link', { name: 'Help Center' }).count(), 0, 'placeholders are not links')
    await footer.getByRole('link', { name: 'Terms of Service' }).click()
    await page.waitForURL((url) => url.pathname === '/pages/terms')
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor()
    await page.getByRole('heading', { level: 2, name: '1. Your account' }).waitFor()
    await page.waitForFunction(() => document.title === 'Terms of Service · Nameport')
    const description = await page.locator('meta[name="description"]').getAttribute('content')
    assert.equal(description, 'The terms that govern your use of this service and the domains you register here.')
    if (shots) await page.screenshot({ path: join(shots, 'page-terms-1280.png'), fullPage: true })

    // The cookie policy names the cookies the server sets, in a table.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Cookie Policy' }).click()
    await page.getByRole('heading', { level: 1, name: 'Cookie Policy' }).waitFor()
    await page.getByRole('cell', { name: 'nameport_session' }).waitFor()
    await page.getByRole('cell', { name: 'nameport_device' }).waitFor()

    // A slug nobody published is the not-found page, answered 404.
    const missing = await page.goto('/pages/no-such-page')
    assert.equal(missing.status(), 404)
    await page.getByRole('heading', { name: "This domain doesn't exist" }).waitFor()
    assert.equal((await page.goto('/pages/terms')).status(), 200)
  })

  test('reads well at 375 px', async () => {
    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    for (const slug of ['terms', 'privacy', 'cookies']) {
      await page.goto(`/pages/${slug}`)
      await page.getByRole('heading', { level: 1 }).waitFor()
      const { scrollWidth, fontSize, textWidth } = await page.evaluate(() => {
        const p = document.querySelector('article > div p')
        return {
          scrollWidth: document.documentElement.scrollWidth,
          fontSize: parseFloat(getComputedStyle(p).fontSize),
          textWidth: p.getBoundingClientRect().width,
        }
      })
      assert.ok(scrollWidth <= 375, `${slug}: the page is ${scrollWidth} px wide`)
      assert.ok(fontSize >= 16, `${slug}: text is ${fontSize} px`)
      assert.ok(textWidth >= 300, `${slug}: text column is ${textWidth} px`)
      if (shots) await page.screenshot({ path: join(shots, `page-${slug}-375.png`), fullPage: slug === 'cookies' })
    }
  })

  test('an admin edits the Privacy Policy, unpublishes and publishes it', async () => {
    const admin = await app.newPage()
    await loginDemoAdmin(admin)
    await admin.goto('/admin-dashboard')
    await admin.getByRole('tab', { name: 'Pages' }).click()
    const panel = admin.getByRole('tabpanel', { name: 'Pages' })
    const list = panel.getByRole('list', { name: 'Pages' })
    await list.getByText('Privacy Policy', { exact: true }).waitFor()
    if (shots) await admin.screenshot({ path: join(shots, 'admin-pages-1280.png') })

    await panel.getByRole('button', { name: 'Edit Privacy Policy' }).click()
    const form = admin.getByRole('form', { name: 'Edit page' })
    const content = form.getByLabel('Content', { exact: true })
    await content.fill(
      (await content.inputValue()) + '\n\n## Data officer\n\nWrite to our data officer at privacy@example.test.',
    )
    await form.getByRole('button', { name: 'Preview' }).click()
    await form.getByRole('heading', { name: 'Data officer' }).waitFor()
    if (shots) await admin.screenshot({ path: join(shots, 'admin-page-edit-1280.png') })
    await form.getByRole('button', { name: 'Save Changes' }).click()
    await admin.getByText('Page Privacy Policy updated').first().waitFor()

    const visitor = await app.newPage()
    await visitor.goto('/pages/privacy')
    await visitor.getByRole('heading', { level: 2, name: 'Data officer' }).waitFor()

    await panel.getByRole('switch', { name: 'Published: Privacy Policy' }).click()
    await admin.getByText('Page Privacy Policy unpublished').first().waitFor()
    // The list reloads after the toast: wait for the switch to follow.
    await panel.getByRole('switch', { name: 'Published: Privacy Policy', checked: false }).waitFor()
    await visitor.reload()
    await visitor.getByRole('heading', { name: "This domain doesn't exist" }).waitFor()
    const api = await fetch(app.baseURL + '/api/pages/privacy')
    assert.equal(api.status, 404)

    await panel.getByRole('switch', { name: 'Published: Privacy Policy' }).click()
    await admin.getByText('Page Privacy Policy published').first().waitFor()
    await visitor.reload()
    await visitor.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor()
    await visitor.getByRole('heading', { level: 2, name: 'Data officer' }).waitFor()
  })
})
