import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, server } from '@/test/server'
import type { PendingDeposit } from '../api/deposits'

const admin = { ...endUser, id: 9, username: 'root', userType: 'admin' as const }

function pending(id: number, amount: number, username: string): PendingDeposit {
  return {
    id,
    type: 'deposit',
    amount,
    status: 'pending',
    paymentMethod: 'bank_transfer',
    description: 'Deposit by bank transfer',
    domainId: null,
    createdAt: '2026-03-04T10:00:00Z',
    userId: id + 100,
    username,
    email: `${username}@example.com`,
  }
}

/** A fake /api/admin/deposits over a list, recording the decisions. */
function serveDeposits(list: PendingDeposit[]) {
  const state = { list: [...list], decisions: [] as string[] }
  server.use(
    http.get('/api/me', () => HttpResponse.json({ success: true, data: admin })),
    http.get('/api/site-settings', () => HttpResponse.json({ success: true, data: [] })),
    http.get('/api/admin/deposits', () => HttpResponse.json({ success: true, data: state.list })),
    http.post('/api/admin/deposits/:id/:decision', ({ params }) => {
      state.decisions.push(`${params.id} ${params.decision}`)
      const deposit = state.list.find((d) => String(d.id) === params.id)!
      state.list = state.list.filter((d) => d !== deposit)
      const status = params.decision === 'confirm' ? 'completed' : 'failed'
      return HttpResponse.json({ success: true, data: { ...deposit, status } })
    }),
  )
  return state
}

async function openPanel() {
  const view = renderApp('/admin-dashboard', { user: admin })
  await view.events.click(await screen.findByRole('tab', { name: 'Payment Gateways' }))
  const panel = within(await screen.findByRole('tabpanel', { name: 'Payment Gateways' }))
  return { ...view, panel }
}

describe('pending bank transfers', () => {
  it('lists them and confirms or rejects one at a time', async () => {
    const state = serveDeposits([pending(7, 50, 'alice'), pending(8, 20, 'bob')])
    const { events, panel } = await openPanel()
    const list = within(await panel.findByRole('list', { name: 'Pending bank transfers' }))
    expect(list.getByText('by alice')).toBeInTheDocument()
    expect(list.getByText('$50.00', { exact: false })).toBeInTheDocument()

    await events.click(list.getByRole('button', { name: 'Confirm deposit #7' }))
    expect(await screen.findByText('Deposit confirmed')).toBeInTheDocument()
    expect(screen.getByText("$50.00 has been added to alice's wallet.")).toBeInTheDocument()

    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true)
    await events.click(await panel.findByRole('button', { name: 'Reject deposit #8' }))
    expect(confirm).toHaveBeenCalledWith('Reject the deposit of $20.00?')
    expect(await panel.findByText('No bank transfers are waiting for confirmation.')).toBeInTheDocument()
    expect(state.decisions).toEqual(['7 confirm', '8 reject'])
    confirm.mockRestore()
  })
})
