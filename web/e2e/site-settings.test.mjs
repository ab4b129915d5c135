// Site Settings take effect (issue 26, item 3), in Chromium against a real
// `nameport serve --demo`: the default logo and favicon exist; an admin's
// site name and primary colour change the header, the page titles and the
// brand colour at once, and the page the server serves (title, description,
// favicon) for visitors and crawlers; contact and social links reach the
// footer. Set NAMEPORT_SHOTS to a folder to keep screenshots of the header.
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

/** The background colour of the header's Register button (a brand-600 button). */
function brandColor(page) {
  return page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-600').trim())
}

describe('Site Settings', () => {
  test('the default logo and favicon are served', async () => {
    for (const [path, type] of [
      ['/logo.svg', 'image/svg+xml'],
      ['/favicon.ico', 'image/'],
    ]) {
      const res = await fetch(app.baseURL + path)
      assert.equal(res.status, 200, path)
      assert.ok(res.headers.get('content-type').startsWith(type), `${path}: ${res.headers.get('content-type')}`)
    }
    const page = await (await fetch(app.baseURL + '/')).text()
    assert.match(page, /<title>Nameport · Domain registration and management<\/title>/)
    assert.match(page, /<link rel="icon" href="\/favicon.ico" \/>/)
  })

  test("an admin's name, colour and links change the header, titles, colours, footer and served page", async () => {
    const page = await app.newPage()
    await loginDemoAdmin(page)
    await page.goto('/admin-dashboard')
    const header = page.getByRole('banner')
    await header.getByText('Nameport', { exact: true }).waitFor()
    assert.equal(await brandColor(page), '79 70 229')

    await page.getByRole('tab', { name: 'Site Settings' }).click()
    const panel = page.getByRole('tabpanel', { name: 'Site Settings' })
    const create = async (key, value, category = 'Branding') => {
      await panel.getByLabel('Key').fill(key)
      await panel.getByLabel('Value').fill(value)
      await panel.getByLabel('Category').selectOption({ label: category })
      await panel.getByRole('button', { name: 'Create Setting' }).click()
      await panel.getByText(key, { exact: true }).waitFor()
    }
    // A colour that is none is refused with the server's message.
    await panel.getByLabel('Key').fill('primary_color')
    await panel.getByLabel('Value').fill('teal')
    await panel.getByRole('button', { name: 'Create Setting' }).click()
    await page.getByText('Primary colour must be a hex colour such as #2563eb', { exact: true }).waitFor()

    await create('site_name', 'Acme Names')
    // The header and the tab title follow at once, without a reload.
    await header.getByText('Acme Names', { exact: true }).waitFor()
    await page.waitForFunction(() => document.title === 'Admin Dashboard · Acme Names')
    await create('primary_color', '#0d9488')
    await page.waitForFunction(
      () => getComputedStyle(document.documentElement).getPropertyValue('--brand-600').trim() === '13 148 136',
    )
    await create('contact_email', 'help@acme.test', 'Contact')
    await create('social_github', 'https://github.com/acme', 'Social')
    await create('seo_description', 'Acme Names sells names.', 'SEO')

    // A visitor meets the site as configured, from the first byte.
    const visitor = await app.newPage()
    const res = await visitor.goto('/')
    const served = await res.text()
    assert.match(served, /<title>Acme Names · Domain registration and management<\/title>/)
    assert.match(served, /<meta name="description" content="Acme Names sells names." \/>/)
    assert.match(served, /<meta name="theme-color" content="#0d9488" \/>/)
    const vHeader = visitor.getByRole('banner')
    await vHeader.getByText('Acme Names', { exact: true }).waitFor()
    assert.equal(await brandColor(visitor), '13 148 136')
    // The Register button is a brand-600 button: it wears the new colour.
    const register = vHeader.getByRole('link', { name: 'Register' }).first()
    assert.equal(await register.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(13, 148, 136)')
    const footer = visitor.getByRole('contentinfo')
    assert.equal(await footer.getByRole('link', { name: 'GitHub' }).getAttribute('href'), 'https://github.com/acme')
    assert.equal(
      await footer.getByRole('link', { name: 'help@acme.test' }).getAttribute('href'),
      'mailto:help@acme.test',
    )
    await footer.getByText(`© ${new Date().getFullYear()} Acme Names. All rights reserved.`).waitFor()
    await visitor.goto('/login')
    await visitor.waitForFunction(() => document.title === 'Log in · Acme Names')

    if (shots) {
      await visitor.goto('/')
      await vHeader.getByText('Acme Names', { exact: true }).waitFor()
      await visitor.screenshot({ path: join(shots, 'site-header-1280.png') })
      await footer.screenshot({ path: join(shots, 'site-footer-1280.png') })
      await visitor.setViewportSize({ width: 375, height: 700 })
      await visitor.screenshot({ path: join(shots, 'site-header-375.png') })
      await footer.screenshot({ path: join(shots, 'site-footer-375.png') })
    }
    await visitor.context().close()
    await page.context().close()
  })
})
