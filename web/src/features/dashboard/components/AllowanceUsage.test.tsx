import { screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { invalidateAfterRegistration } from '@/features/registration/api/registration'
import { allowanceQueryOptions, type Allowance } from '@/lib/allowance'
import { createQueryClient } from '@/lib/queryClient'
import { renderApp } from '@/test/renderApp'
import { registrar, server } from '@/test/server'

function serveDashboard(allowance: Allowance) {
  server.use(
    http.get('/api/domains', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 42, currency: 'USD' } })),
    http.get('/api/registrar/allowance', () => HttpResponse.json({ success: true, data: allowance })),
  )
}

const november = { periodStart: '2026-11-01T00:00:00Z', resetsAt: '2026-12-01T00:00:00Z' }

describe('monthly allowance on the registrar dashboard', () => {
  it("shows the month's registrations against the tier's allowance and when it resets", async () => {
    serveDashboard({ tier: 'basic', limit: 100, used: 37, remaining: 63, ...november })
    renderApp('/registrar-dashboard', { user: { ...registrar, tier: 'basic' } })
    expect(await screen.findByText('37 of 100 this month · resets Dec 1')).toBeInTheDocument()
    const bar = screen.getByRole('progressbar', { name: 'New registrations this month' })
    expect(bar).toHaveAttribute('aria-valuenow', '37')
    expect(bar).toHaveAttribute('aria-valuemax', '100')
    expect(screen.queryByText(/New registrations resume/)).not.toBeInTheDocument()
  })

  it('says when new registrations resume once the allowance is used up', async () => {
    serveDashboard({ tier: 'premium', limit: 500, used: 500, remaining: 0, ...november })
    renderApp('/registrar-dashboard', { user: registrar })
    expect(await screen.findByText('500 of 500 this month · resets Dec 1')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent(
      "You have used this month's 500 new registrations. New registrations resume on Dec 1, 2026 (UTC); renewals are not affected.",
    )
  })

  it('shows an enterprise registrar its count without a limit', async () => {
    serveDashboard({ tier: 'enterprise', limit: null, used: 812, remaining: null, ...november })
    renderApp('/registrar-dashboard', { user: { ...registrar, tier: 'enterprise' } })
    expect(await screen.findByText('812 this month · unlimited')).toBeInTheDocument()
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
  })

  it('is read again after a registration', async () => {
    const queryClient = createQueryClient()
    const { queryKey } = allowanceQueryOptions()
    queryClient.setQueryData(queryKey, { tier: 'basic', limit: 100, used: 1, remaining: 99, ...november })
    await invalidateAfterRegistration(queryClient)
    expect(queryClient.getQueryState(queryKey)?.isInvalidated).toBe(true)
  })
})
