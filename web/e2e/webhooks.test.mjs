// A registrar adds a webhook endpoint on the dashboard's Webhooks tab,
// clicked through in Chromium against a real server (run with
// --webhooks-allow-private-targets, so that a receiver on 127.0.0.1 may be
// the endpoint), copies the signing secret shown once, and sends a test
// event: the receiver this test runs gets it, signed with that secret, and
// the delivery log shows it delivered.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import { signUp, uniqueName, useApp } from './harness.mjs'

const app = useApp({ before, after, serverArgs: ['--webhooks-allow-private-targets'] })

/** A receiver on 127.0.0.1: each delivery resolves the next wait. */
async function startReceiver() {
  const got = []
  const waiters = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const delivery = { body: Buffer.concat(chunks), headers: req.headers }
      res.writeHead(204).end()
      const w = waiters.shift()
      if (w) w(delivery)
      else got.push(delivery)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    next: () => (got.length ? Promise.resolve(got.shift()) : new Promise((resolve) => waiters.push(resolve))),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

/** Checks a Nameport-Signature header as receivers do (t=…,v1=HMAC-SHA256(secret, "t.body")). */
function verify(body, header, secret) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')))
  const want = createHmac('sha256', secret).update(`${parts.t}.`).update(body).digest()
  const got = Buffer.from(parts.v1 ?? '', 'hex')
  assert.ok(got.length === want.length && timingSafeEqual(got, want), 'the signature matches the body')
  assert.ok(Math.abs(Date.now() / 1000 - Number(parts.t)) < 300, 'the timestamp is recent')
}

describe('Webhooks', () => {
  test('a registrar adds an endpoint and sends a test event, signed with the secret shown once', async () => {
    const receiver = await startReceiver()
    try {
      const page = await app.newPage()
      await signUp(page, uniqueName('hookreg'), { type: 'registrar' })
      await page.goto('/registrar-dashboard?tab=webhooks')
      await page.getByText('No endpoints yet. Add one to receive events.').waitFor()

      await page.getByRole('button', { name: 'Add endpoint' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add endpoint' })
      await dialog.getByLabel('Endpoint URL').fill(receiver.url)
      await dialog.getByRole('checkbox', { name: /domain\.expiring/ }).uncheck()
      await dialog.getByRole('button', { name: 'Add endpoint' }).click()
      const shown = page.getByRole('dialog', { name: 'Endpoint added' })
      const secret = await shown.getByRole('textbox', { name: 'Signing secret' }).inputValue()
      assert.match(secret, /^whsec_/)
      if (process.env.WEBHOOK_SHOTS) await page.screenshot({ path: `${process.env.WEBHOOK_SHOTS}/webhooks-secret.png` })
      await shown.getByRole('button', { name: 'Done' }).click()
      await shown.waitFor({ state: 'detached' })

      const list = page.getByRole('list', { name: 'Webhook endpoints' })
      await list.getByText(receiver.url).waitFor()
      await list.getByRole('button', { name: 'Send test event' }).click()

      const delivery = await receiver.next()
      verify(delivery.body, delivery.headers['nameport-signature'], secret)
      assert.equal(delivery.headers['content-type'], 'application/json')
      const event = JSON.parse(delivery.body.toString())
      assert.equal(event.type, 'webhook.test')
      assert.match(event.id, /^evt_/)

      const log = page.getByRole('table', { name: `Deliveries to ${receiver.url}` })
      const row = log.getByRole('row').filter({ hasText: 'webhook.test' })
      await row.getByText('Delivered').waitFor()
      await row.getByText('204').waitFor()

      // Turned off and on again by its switch, and its events edited.
      const hooks = async () => (await (await page.request.get('/api/registrar/webhooks')).json()).data.endpoints[0]
      const toggle = list.getByRole('switch', { name: `Enable endpoint ${receiver.url}` })
      await toggle.click()
      await list.getByText('Disabled', { exact: true }).waitFor()
      assert.equal((await hooks()).enabled, false)
      await toggle.click()
      await list.getByText('Enabled', { exact: true }).waitFor()
      assert.equal((await hooks()).enabled, true)
      await list.getByRole('button', { name: `Edit events of ${receiver.url}` }).click()
      const edit = page.getByRole('dialog', { name: 'Edit events' })
      await edit.getByRole('checkbox', { name: /dns\.changed/ }).uncheck()
      await edit.getByRole('button', { name: 'Save events' }).click()
      await edit.waitFor({ state: 'detached' })
      assert.ok(!(await hooks()).events.includes('dns.changed'))
      assert.ok((await hooks()).events.includes('domain.registered'))
      if (process.env.WEBHOOK_SHOTS) {
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.screenshot({ path: `${process.env.WEBHOOK_SHOTS}/webhooks-1280.png`, fullPage: true })
        await page.setViewportSize({ width: 375, height: 800 })
        await page.screenshot({ path: `${process.env.WEBHOOK_SHOTS}/webhooks-375.png`, fullPage: true })
        await page
          .getByRole('list', { name: `Deliveries to ${receiver.url}` })
          .screenshot({ path: `${process.env.WEBHOOK_SHOTS}/webhooks-deliveries-375.png` })
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.getByRole('button', { name: 'Add endpoint' }).click()
        await page.getByRole('dialog', { name: 'Add endpoint' }).waitFor()
        await page.screenshot({ path: `${process.env.WEBHOOK_SHOTS}/webhooks-add.png` })
        await page.keyboard.press('Escape')
      }
      await page.context().close()
    } finally {
      await receiver.close()
    }
  })
})
