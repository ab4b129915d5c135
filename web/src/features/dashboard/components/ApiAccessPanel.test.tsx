import { screen, waitFor, within } from '@testing-library/react'
import { delay, http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { registrar, registrarApiKey, server, sessionAs } from '@/test/server'

const NEW_KEY = 'np_live_fedcba9876543210'

/**
 * The registrar's server: POST /api/registrar/api-key swaps the key (after
 * `rotateDelay` ms) and GET /api/registrar/api-key answers the current one.
 * Counts the rotations.
 */
function serveRegistrar({ rotateDelay = 0 } = {}) {
  const calls = { rotate: 0 }
  let apiKey = registrarApiKey
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 0, currency: 'USD' } })),
    sessionAs(() => registrar),
    http.get('/api/registrar/api-key', () => HttpResponse.json({ success: true, data: { apiKey } })),
    http.post('/api/registrar/api-key', async () => {
      calls.rotate++
      await delay(rotateDelay)
      apiKey = NEW_KEY
      return HttpResponse.json({ success: true, data: { apiKey } })
    }),
  )
  return calls
}

async function openApiTab() {
  const view = renderApp('/registrar-dashboard?tab=api', { user: registrar })
  // The key is read from its own endpoint, after the dashboard shows.
  await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue(registrarApiKey))
  return view
}

function apiStatus() {
  return screen.getByText('API Status').parentElement!
}

async function openConfirmation(events: ReturnType<typeof renderApp>['events']) {
  await events.click(screen.getByRole('button', { name: 'Generate New Key' }))
  const dialog = await screen.findByRole('dialog', { name: 'Generate a new API key?' })
  return within(dialog)
}

describe('generating a new API key', () => {
  it('asks first, warning that the old key stops working', async () => {
    serveRegistrar()
    const { events } = await openApiTab()
    expect(screen.getByText('Generating a new key will invalidate your existing key.')).toBeInTheDocument()
    const dialog = await openConfirmation(events)
    expect(dialog.getByText('Generating a new key will invalidate your existing key.')).toBeInTheDocument()
    expect(dialog.getByText(/scripts and integrations that use the old key stop working at once/i)).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Cancel' })).toBeEnabled()
    expect(dialog.getByRole('button', { name: 'Generate New Key' })).toBeEnabled()
  })

  it('calls nothing when cancelled', async () => {
    const calls = serveRegistrar()
    const { events } = await openApiTab()
    const dialog = await openConfirmation(events)
    await events.click(dialog.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(calls.rotate).toBe(0)
    expect(screen.getByLabelText('API key')).toHaveValue(registrarApiKey)
  })

  it('generates the key once on confirmation and shows the new key everywhere', async () => {
    const calls = serveRegistrar({ rotateDelay: 150 })
    const { events } = await openApiTab()
    expect(apiStatus()).toHaveTextContent('np_live_...')
    const dialog = await openConfirmation(events)
    await events.click(dialog.getByRole('button', { name: 'Generate New Key' }))

    // While the request runs the confirmation cannot be sent again or left.
    const busy = dialog.getByRole('button', { name: 'Generating...' })
    expect(busy).toBeDisabled()
    expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled()
    await events.click(busy)

    expect(await screen.findByText('API key regenerated')).toBeInTheDocument()
    expect(
      screen.getByText('Your old key no longer works. Update your integrations with the new key.'),
    ).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.getByLabelText('API key')).toHaveValue(NEW_KEY)
    expect(apiStatus()).toHaveTextContent(`${NEW_KEY.slice(0, 8)}...`)
    expect(screen.getByText(new RegExp(`const apiKey = '${NEW_KEY}'`))).toBeInTheDocument()
    expect(calls.rotate).toBe(1)
  })

  it("shows the server's error on a 403 and keeps the dialog open", async () => {
    serveRegistrar()
    server.use(
      http.post('/api/registrar/api-key', () =>
        HttpResponse.json({ success: false, error: 'Only registrars have an API key' }, { status: 403 }),
      ),
    )
    const { events } = await openApiTab()
    const dialog = await openConfirmation(events)
    await events.click(dialog.getByRole('button', { name: 'Generate New Key' }))
    expect(await screen.findByText('Error')).toBeInTheDocument()
    expect(screen.getByText('Only registrars have an API key')).toBeInTheDocument()
    expect(screen.getByRole('dialog', { name: 'Generate a new API key?' })).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Generate New Key' })).toBeEnabled()
    expect(screen.getByLabelText('API key')).toHaveValue(registrarApiKey)
  })
})

describe('the JavaScript example', () => {
  it('checks, then registers with an Idempotency-Key, and copies', async () => {
    serveRegistrar()
    const { events } = await openApiTab()
    const code = screen.getByText(/\/v1\/domains\/check/).closest('code')!
    expect(code).toHaveTextContent(`'X-API-Key': apiKey`)
    expect(code).toHaveTextContent('/v1/domains/register')
    expect(code).toHaveTextContent(`'Idempotency-Key': idempotencyKey`)
    expect(code).toHaveTextContent('crypto.randomUUID()')
    expect(code).toHaveTextContent('years: 1')
    expect(code).toHaveTextContent('nameservers:')
    await events.click(screen.getByRole('button', { name: 'Copy code' }))
    expect(await screen.findByText('Code copied')).toBeInTheDocument()
    expect(await navigator.clipboard.readText()).toBe(code.textContent)
  })
})
