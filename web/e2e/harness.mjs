// Starts a real `nameport serve` on a temporary SQLite database and free
// ports, and a headless system Chromium to drive it. Used by the *.test.mjs
// files in this directory (node --test).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { createSocket } from 'node:dgram'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath } from './browser.mjs'

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const READY_TIMEOUT_MS = 30_000

export const nameportBin = resolve(webDir, process.env.NAMEPORT_BIN ?? '../bin/nameport')

/** A TCP port that is free now, also free for UDP (the DNS role binds both). */
async function freePort() {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise((resolvePort, reject) => {
      const server = createServer()
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address()
        server.close(() => resolvePort(port))
      })
    })
    const udpFree = await new Promise((resolveFree) => {
      const socket = createSocket('udp4')
      socket.once('error', () => resolveFree(false))
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolveFree(true)))
    })
    if (udpFree) return port
  }
  throw new Error('no free port for TCP and UDP')
}

/**
 * Runs `nameport serve` until stop() is called. Resolves once GET /readyz
 * answers 200; rejects with the server's output if it exits or is not ready
 * within 30 seconds.
 */
export async function startServer({ extraArgs = [], host = '127.0.0.1' } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'nameport-e2e-'))
  const httpPort = await freePort()
  const dnsPort = await freePort()
  const mailPort = await freePort()
  const forwardPort = await freePort()
  // host names the server to the browser; another name than the address it
  // listens on (localhost: passkeys need a domain name) is its public URL.
  const baseURL = `http://${host}:${httpPort}`
  if (host !== '127.0.0.1') extraArgs = ['--public-url', baseURL, ...extraArgs]
  // --demo loads the demo catalogue (extensions and premium names) that the
  // catalogue tests rely on, and the demo accounts demo, demo-registrar and
  // demo-admin; the other tests make their own accounts and must not use those names.
  // It also runs demo payments (deposits complete at once without payment);
  // a test of real payment rules passes --demo-payments=false in extraArgs.
  const args = [
    'serve',
    '--demo',
    '--database-url',
    `sqlite://${join(dataDir, 'e2e.db')}`,
    '--data-dir',
    dataDir,
    '--http-addr',
    `127.0.0.1:${httpPort}`,
    '--dns-addr',
    `127.0.0.1:${dnsPort}`,
    // The mail role (email forwarding's SMTP server) on a port of its own:
    // tests run servers side by side.
    '--mail-listen',
    `127.0.0.1:${mailPort}`,
    // The forward role (domain forwarding's redirects) likewise; forwarded
    // hosts' A records name 127.0.0.1. Its HTTPS server is off: certificates
    // would come from Let's Encrypt, which tests must not ask.
    '--forward-http-addr',
    `127.0.0.1:${forwardPort}`,
    '--forward-https-addr',
    '',
    // Every test signs up its accounts from 127.0.0.1, one client network
    // that the sign-up throttle (10 an hour by default) would soon refuse.
    '--signup-limit',
    '1000',
    ...extraArgs,
  ]
  const child = spawn(nameportBin, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })))
  let spawnError
  child.once('error', (error) => (spawnError = error))

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(killTimer)
    }
    await rm(dataDir, { recursive: true, force: true })
  }

  const deadline = Date.now() + READY_TIMEOUT_MS
  while (true) {
    if (spawnError) {
      await stop()
      throw new Error(
        `cannot start ${nameportBin}: ${spawnError.message} (build it with: cd .. && go build -o bin/nameport ./cmd/nameport)`,
      )
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop()
      throw new Error(`nameport serve exited early (${child.exitCode ?? child.signalCode}):\n${output}`)
    }
    try {
      const res = await fetch(`http://127.0.0.1:${httpPort}/readyz`)
      if (res.status === 200) break
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`nameport serve was not ready within ${READY_TIMEOUT_MS / 1000}s:\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    baseURL,
    dnsAddr: `127.0.0.1:${dnsPort}`,
    mailAddr: `127.0.0.1:${mailPort}`,
    forwardAddr: `127.0.0.1:${forwardPort}`,
    stop,
    output: () => output,
  }
}

/** The webhook signing secret of servers started with { stripe: true }. */
export const STRIPE_WEBHOOK_SECRET = 'whsec_nameport_e2e'

/**
 * Runs stripe-mock, Stripe's API fake (the Go module's tool dependency, so
 * it works offline), on a free port; resolves with its URL.
 */
export async function startStripeMock() {
  const bin = execFileSync('go', ['tool', '-n', 'stripe-mock'], { cwd: resolve(webDir, '..') })
    .toString()
    .trim()
  const child = spawn(bin, ['-http-addr', '127.0.0.1:0', '-https-addr', '127.0.0.1:0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise((resolveURL, reject) => {
    const timer = setTimeout(() => reject(new Error(`stripe-mock did not start:\n${output}`)), READY_TIMEOUT_MS)
    const read = (chunk) => {
      output += chunk
      const m = /Listening for HTTP at address: (\S+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolveURL(`http://${m[1]}`)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`stripe-mock exited (${code}):\n${output}`)))
  })
  return { url, stop: () => child.kill('SIGKILL') }
}

export function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}

/** The password of accounts the tests sign up. */
export const TEST_PASSWORD = 'correct-horse-9'

/**
 * Returns the newest link of a mail of kind to `email`, read from the outbox
 * (the server's mailbox without SMTP) as demo-admin, as an operator would;
 * waits for the worker to send it.
 */
export async function mailedLink(origin, email, kind, pattern) {
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'demo-admin', password: 'demo1234' }),
  })
  if (login.status !== 200) throw new Error(`demo-admin login: ${login.status}`)
  const cookie = login.headers.get('set-cookie').split(';')[0]
  for (let i = 0; i < 150; i++) {
    const res = await fetch(`${origin}/api/admin/outbox?limit=100`, { headers: { Cookie: cookie } })
    const mail = (await res.json()).data.messages.find((m) => m.kind === kind && m.to === email)
    const link = mail?.body.match(pattern)
    if (link) return link[0]
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no ${kind} mail to ${email} in the outbox`)
}

/**
 * Verifies the email address of the account signed in on page, as its owner
 * does: opens the mailed link, clicks Verify, and goes back to where the
 * page was. Accounts must verify before they register names or add funds.
 */
export async function verifyEmail(page, email) {
  const back = page.url()
  const origin = new URL(back).origin
  const link = await mailedLink(origin, email, 'verify_email', /\/verify-email\?token=[A-Za-z0-9_-]+/)
  await page.goto(origin + link)
  await page.getByRole('button', { name: 'Verify my email address' }).click()
  await page.getByText('You can now register names and add funds to your wallet.', { exact: true }).waitFor()
  await page.goto(back)
}

/**
 * Signs up username (an end user, or a registrar partner) through the
 * registration form, waits for the dashboard it lands on and verifies the
 * account's email address through the mailed link.
 */
export async function signUp(page, username, { type = 'user' } = {}) {
  await page.goto(type === 'registrar' ? '/register?type=registrar' : '/register')
  await page.getByLabel('Full name').fill(`Test ${username}`)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD)
  await page.getByLabel('Confirm password').fill(TEST_PASSWORD)
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.waitForURL(type === 'registrar' ? '**/registrar-dashboard' : '**/dashboard')
  await verifyEmail(page, `${username}@example.com`)
}

/** A unique, valid username for one test run. */
export function uniqueName(prefix) {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
}

/**
 * Starts the server and the browser for one test file, and gives each test a
 * fresh page (its own cookies). Call from the file's top level.
 */
export function useApp({ before, after, stripe = false, serverArgs = [], host }) {
  const state = {}
  before(async () => {
    let extraArgs = [...serverArgs]
    if (stripe) {
      state.stripe = await startStripeMock()
      extraArgs = [
        ...extraArgs,
        '--stripe-secret-key',
        'sk_test_123',
        '--stripe-publishable-key',
        'pk_test_123',
        '--stripe-api-url',
        state.stripe.url,
        '--stripe-webhook-secret',
        STRIPE_WEBHOOK_SECRET,
      ]
    }
    state.server = await startServer({ extraArgs, host })
    state.browser = await launchBrowser()
  })
  after(async () => {
    await state.browser?.close()
    await state.server?.stop()
    state.stripe?.stop()
  })
  return {
    get baseURL() {
      return state.server.baseURL
    },
    async newPage() {
      const context = await state.browser.newContext({
        baseURL: state.server.baseURL,
        viewport: { width: 1280, height: 800 },
      })
      context.setDefaultTimeout(10_000)
      return context.newPage()
    },
  }
}

/** Deposits amount dollars from the wallet page (demo payments complete at once). */
export async function deposit(page, amount) {
  await page.goto('/wallet?tab=deposit')
  await page.getByLabel('Amount (USD)').fill(String(amount))
  const shown = `$${amount.toFixed(2)}`
  await page.getByRole('button', { name: `Deposit ${shown}` }).click()
  await page.getByText(`${shown} has been added to your wallet`, { exact: true }).waitFor()
}

/** Registers label.inf.nz from the landing page's result card; ends on its domain page. */
export async function registerName(page, label) {
  await page.goto(`/?name=${label}&extension=.inf.nz`)
  await page.getByRole('region', { name: 'Search result' }).getByRole('button', { name: 'Register Now' }).click()
  const dialog = page.getByRole('dialog', { name: 'Register domain' })
  await dialog.getByText('Wallet balance').waitFor()
  await dialog.getByRole('button', { name: 'Register', exact: true }).click()
  await page.waitForURL(/\/domain-management\/\d+$/)
  await page.getByRole('heading', { name: `${label}.inf.nz`, level: 1 }).waitFor()
}
