// Takes full-page screenshots of the main screens at desktop and phone width,
// for a person to look at (not a test). Usage:
//   node e2e/screenshots.mjs [baseURL] [outDir] [path...]
// Paths default to the public screens; pass /dashboard etc. with a session
// by setting NAMEPORT_LOGIN=username:password. A target `search:NAME:.EXT`
// searches NAME on the landing page and shots the hero with its result card.
// `scene:wallet` signs up a fresh end user and shoots the registration dialog
// (short of funds, then with enough), the deposit form and its success, the
// wallet tabs, the domain's settings and the dashboard with the domain;
// `scene:registrar` signs up a fresh registrar and shoots its dashboard;
// `scene:dns` signs up, deposits, registers a name and shoots its DNS tab:
// empty, with records, the add dialog set to MX (invalid, then a TTL
// differing from its set's), and an import preview.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { chromiumArgs, chromiumPath } from './browser.mjs'
import { verifyEmail } from './harness.mjs'

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
      const scene = { 'scene:wallet': walletScene, 'scene:registrar': registrarScene, 'scene:dns': dnsScene }[path]
      if (scene) {
        await scene(browser, { viewport, baseURL, label })
        continue
      }
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

/** A full-page screenshot, or only the screen (for a dialog over the page). */
async function shoot(page, name, label, { fullPage = true } = {}) {
  await page.waitForTimeout(300)
  const file = join(outDir, `${name}-${label}.png`)
  await page.screenshot({ path: file, fullPage })
  console.log(file)
}

async function signUp(page, { type = 'user' } = {}) {
  const username = `shot${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  await page.goto(type === 'registrar' ? '/register?type=registrar' : '/register')
  await page.getByLabel('Full name').fill(type === 'registrar' ? 'Acme Registrar Ltd' : 'Ada Lovelace')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Email').fill(`${username}@example.com`)
  await page.getByLabel('Password', { exact: true }).fill('screenshot-1')
  await page.getByLabel('Confirm password').fill('screenshot-1')
  await page.getByRole('button', { name: 'Create Account' }).click()
  await page.waitForURL(/dashboard/)
  await verifyEmail(page, `${username}@example.com`) // needs --demo (demo-admin reads the outbox)
}

async function openRegistration(page, name, extension) {
  await page.goto(`/?name=${name}&extension=${extension}`)
  await page.getByRole('region', { name: 'Search result' }).getByRole('button', { name: 'Register Now' }).click()
  const dialog = page.getByRole('dialog', { name: 'Register domain' })
  await dialog.getByText('Wallet balance').waitFor()
  await page.waitForLoadState('networkidle')
  return dialog
}

async function walletScene(browser, { viewport, baseURL, label }) {
  const context = await browser.newContext({ viewport, baseURL })
  const page = await context.newPage()
  await signUp(page)
  const name = `ada-${Date.now().toString(36)}`

  let dialog = await openRegistration(page, name, '.inf.nz')
  await dialog.getByLabel('Registration period').selectOption('2')
  await shoot(page, 'register-dialog-short', label, { fullPage: false })
  await dialog.getByRole('link', { name: 'Add funds' }).click()
  await page.getByLabel('Amount (USD)').waitFor()
  await page.getByLabel('Amount (USD)').fill('50')
  await shoot(page, 'wallet-deposit-form', label)
  await page.getByRole('button', { name: 'Deposit $50.00' }).click()
  await page.getByText('$50.00 has been added to your wallet').waitFor()
  await shoot(page, 'wallet-deposit-success', label)

  dialog = await openRegistration(page, name, '.inf.nz')
  await dialog.getByLabel('Registration period').selectOption('2')
  await shoot(page, 'register-dialog-enough', label, { fullPage: false })
  await dialog.getByRole('button', { name: 'Register', exact: true }).click()
  await page.waitForURL(/domain-management/)
  await page.getByRole('tab', { name: 'Domain Settings' }).click()
  await shoot(page, 'domain-settings', label)

  await page.goto('/dashboard')
  // The table on wide screens, a stacked list on phones.
  await page.getByText(`${name}.inf.nz`, { exact: true }).filter({ visible: true }).first().waitFor()
  await shoot(page, 'dashboard-with-domain', label)

  await page.goto('/wallet')
  await page
    .getByRole('region', { name: 'Recent transactions' })
    .getByText(/^Registration of/)
    .waitFor()
  await shoot(page, 'wallet-overview', label)
  await page.getByRole('tab', { name: 'Transactions' }).click()
  await page.getByLabel('Type').selectOption({ label: 'Deposits' })
  await shoot(page, 'wallet-transactions-deposits', label)

  await page.goto('/dashboard')
  await page.getByRole('button', { name: 'Register Domain' }).click()
  const search = page.getByRole('dialog', { name: 'Register a domain' })
  await search.getByLabel('Domain name').fill('shop')
  await search.getByLabel('Extension').selectOption('.biz.ee')
  await search.getByRole('button', { name: 'Search' }).click()
  await search.getByRole('region', { name: 'Search result' }).waitFor()
  await shoot(page, 'dashboard-register-search', label, { fullPage: false })
  await context.close()
}

async function registrarScene(browser, { viewport, baseURL, label }) {
  const context = await browser.newContext({ viewport, baseURL })
  const page = await context.newPage()
  await signUp(page, { type: 'registrar' })
  await page.getByText('Total Domains').waitFor()
  await page.waitForLoadState('networkidle')
  await shoot(page, 'registrar-dashboard', label)
  await context.close()
}

async function dnsScene(browser, { viewport, baseURL, label }) {
  const context = await browser.newContext({ viewport, baseURL })
  const page = await context.newPage()
  await signUp(page)
  await page.goto('/wallet?tab=deposit')
  await page.getByLabel('Amount (USD)').fill('20')
  await page.getByRole('button', { name: 'Deposit $20.00' }).click()
  await page.getByText('$20.00 has been added to your wallet').waitFor()
  const name = `ada-${Date.now().toString(36)}`
  const dialog = await openRegistration(page, name, '.inf.nz')
  await dialog.getByRole('button', { name: 'Register', exact: true }).click()
  await page.waitForURL(/domain-management/)
  const panel = page.getByRole('tabpanel', { name: 'DNS Management' })
  await panel.getByText('No DNS records found').waitFor()
  await page.waitForTimeout(5500) // the registration toast goes
  await shoot(page, 'dns-empty', label)

  const records = [
    { type: 'A', name: '@', content: '192.0.2.10' },
    { type: 'AAAA', name: '@', content: '2001:db8::10' },
    { type: 'CNAME', name: 'www', content: `${name}.inf.nz` },
    { type: 'MX', name: '@', content: 'mail.example.com', priority: '10' },
    { type: 'TXT', name: '@', content: 'v=spf1 include:_spf.example.com ~all' },
    {
      type: 'TXT',
      name: 'mail._domainkey',
      content:
        'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu7Jf3kQ0yq0Xr0c9gB7c1Qf2x5nq1w8Jm0wIDAQAB',
    },
    { type: 'SRV', name: '_sip._tcp', content: '10 5 5060 sip.example.com' },
    { type: 'CAA', name: '@', content: '0 issue "letsencrypt.org"' },
  ]
  for (const record of records) {
    await panel.getByRole('button', { name: 'Add Record' }).click()
    const form = page.getByRole('dialog', { name: 'Add DNS record' })
    await form.getByLabel('Type').selectOption(record.type)
    await form.getByLabel('Name').fill(record.name)
    await form.getByLabel('Content').fill(record.content)
    if (record.priority) await form.getByLabel('Priority').fill(record.priority)
    await form.getByRole('button', { name: 'Save record' }).click()
    await form.waitFor({ state: 'detached' })
  }
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(5500)
  await shoot(page, 'dns-records', label)

  await panel.getByRole('button', { name: 'Add Record' }).click()
  const form = page.getByRole('dialog', { name: 'Add DNS record' })
  await form.getByLabel('Type').selectOption('MX')
  await form.getByLabel('Name').fill('@')
  await form.getByLabel('Content').fill('mx2.example.com')
  await form.getByLabel('Priority').fill('20')
  await shoot(page, 'dns-add-mx', label, { fullPage: false })
  await form.getByLabel('Content').fill('')
  await form.getByLabel('TTL (seconds)').fill('60')
  await form.getByRole('button', { name: 'Save record' }).click()
  await form.getByText('Record content is required').waitFor()
  await shoot(page, 'dns-add-invalid', label, { fullPage: false })
  // A second MX with its own priority but another TTL than the set's: the
  // server's message, with the offer to align the set.
  await form.getByLabel('Content').fill('mx2.example.com')
  await form.getByLabel('TTL (seconds)').fill('600')
  await form.getByRole('button', { name: 'Save record' }).click()
  await form.getByRole('button', { name: /Align all to/ }).waitFor()
  await shoot(page, 'dns-add-ttl-align', label, { fullPage: false })
  await form.getByRole('button', { name: 'Cancel' }).click()

  await panel.getByRole('button', { name: 'Import zone file' }).click()
  const importer = page.getByRole('dialog', { name: 'Import zone file' })
  await importer
    .getByLabel('Zone file')
    .fill(
      [
        `$ORIGIN ${name}.inf.nz.`,
        '$TTL 3600',
        '@          IN NS    ns1.nameport.test.',
        '@          IN NS    ns1.dns-host.example.',
        'geo        IN GPOS  "-22.6882" "116.8652" "250.0"',
        '@          IN MX    20 mx2.example.com.',
        '@     600  IN A     192.0.2.10',
        'www        IN CNAME @',
        'blog       IN A     192.0.2.20',
        '@          IN MX    10 mail.example.com.',
        '@          IN TXT   "v=spf1 include:_spf.example.com -all"',
        '',
      ].join('\n'),
    )
  await importer.getByRole('button', { name: 'Preview' }).click()
  await importer.getByRole('region', { name: 'Import preview' }).or(importer.getByRole('alert')).first().waitFor()
  await shoot(page, 'dns-import-preview', label, { fullPage: false })
  await context.close()
}
