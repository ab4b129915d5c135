// The contact form reaches the admins (issue 26), in Chromium against a real
// `nameport serve --demo`: a visitor sends the landing page's form and gets
// the spec's toast; demo-admin finds it in the Inbox tab, replies, and the
// reply goes out by mail; the inbox works on a 375 px phone.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { mailedLink, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after })

async function loginDemoAdmin(page) {
  await page.goto('/login')
  await page.getByLabel('Username').fill('demo-admin')
  await page.getByLabel('Password').fill('demo1234')
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

/** Sends the landing page's contact form as a visitor and waits for the spec's toast. */
async function sendContactRequest(company, email, message) {
  const page = await app.newPage()
  await page.goto('/')
  const form = page.getByRole('form', { name: 'Contact us' })
  await form.getByLabel('Company').fill(company)
  await form.getByLabel('Email').fill(email)
  await form.getByLabel("I'm interested in").selectOption({ label: 'Becoming a registrar partner' })
  await form.getByLabel('Message (optional)').fill(message)
  await form.getByRole('button', { name: 'Send request' }).click()
  const toast = page.getByRole('region', { name: /Notifications/ }).locator('li')
  await toast.getByText('Contact request submitted').waitFor()
  await toast.getByText("We'll get back to you shortly!").waitFor()
  assert.equal(await form.getByLabel('Company').inputValue(), '', 'the form resets')
  await page.context().close()
}

async function openInbox(page) {
  await page.goto('/admin-dashboard')
  await page.getByRole('tab', { name: 'Inbox' }).click()
  return page.getByRole('tabpanel', { name: 'Inbox' })
}

describe('contact inbox', () => {
  test('a visitor writes, the admin reads it in the Inbox and replies by mail', async () => {
    const company = uniqueName('Acme')
    const email = `${company.toLowerCase()}@example.org`
    await sendContactRequest(company, email, 'We would like to resell .inf.nz names.')

    const page = await app.newPage()
    await loginDemoAdmin(page)
    const inbox = await openInbox(page)
    await inbox.getByText('unread', { exact: false }).first().waitFor()
    const item = inbox.getByRole('list', { name: 'Messages' }).getByRole('button').filter({ hasText: company })
    await item.getByText('New', { exact: true }).waitFor()
    await item.getByText('Becoming a registrar partner').waitFor()
    await item.click()

    const detail = inbox.getByRole('article', { name: `Message from ${company}` })
    await detail.getByText('We would like to resell .inf.nz names.').waitFor()
    await item.getByText('Read', { exact: true }).waitFor()
    await detail.getByLabel(`Reply to ${email}`).fill('Welcome aboard!\nApply from the registration page.')
    await detail.getByRole('button', { name: 'Send reply' }).click()
    await page
      .getByRole('region', { name: /Notifications/ })
      .getByText('Reply sent')
      .waitFor()
    await detail.getByText('Answered by demo-admin', { exact: false }).waitFor()
    await item.getByText('Answered', { exact: true }).waitFor()

    // The reply went out to the sender (the development outbox).
    const mailed = await mailedLink(app.baseURL, email, 'contact_reply', /Welcome aboard!/)
    assert.equal(mailed, 'Welcome aboard!')
    await page.context().close()
  })

  test('on a 375 px phone the inbox is usable: open, read, reply, back', async () => {
    const company = uniqueName('Phone')
    const email = `${company.toLowerCase()}@example.org`
    await sendContactRequest(company, email, 'Can I pay by bank transfer?')

    const page = await app.newPage()
    await page.setViewportSize({ width: 375, height: 800 })
    await loginDemoAdmin(page)
    const inbox = await openInbox(page)
    const item = inbox.getByRole('list', { name: 'Messages' }).getByRole('button').filter({ hasText: company })
    await item.click()
    const detail = inbox.getByRole('article', { name: `Message from ${company}` })
    await detail.getByText('Can I pay by bank transfer?').waitFor()
    const send = detail.getByRole('button', { name: 'Send reply' })
    await send.scrollIntoViewIfNeeded()
    const box = await send.boundingBox()
    assert.ok(box.x >= 0 && box.x + box.width <= 375, `Send reply is on screen: ${JSON.stringify(box)}`)
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(width <= 375, `the page is ${width} px wide`)

    await detail.getByLabel(`Reply to ${email}`).fill('Yes: choose Bank transfer in your wallet.')
    await send.click()
    await detail.getByText('Answered by demo-admin', { exact: false }).waitFor()
    await detail.getByRole('button', { name: 'Back to inbox' }).click()
    await item.getByText('Answered', { exact: true }).waitFor()
    await page.context().close()
  })
})
