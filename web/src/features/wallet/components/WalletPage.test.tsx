import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderApp } from '@/test/renderApp'
import { endUser, registrar, server } from '@/test/server'
import { walletTotals, type Transaction } from '../api/wallet'

const transactions: Transaction[] = [
  {
    id: 3,
    type: 'domain_purchase',
    amount: -8,
    status: 'completed',
    paymentMethod: 'wallet',
    description: 'acme.inf.nz',
    createdAt: '2025-06-02T10:00:00Z',
  },
  { id: 2, type: 'deposit', amount: 20, status: 'pending', paymentMethod: 'paypal', createdAt: '2025-06-01T10:00:00Z' },
  {
    id: 1,
    type: 'deposit',
    amount: 50.1,
    status: 'completed',
    paymentMethod: 'credit_card',
    createdAt: '2025-05-01T10:00:00Z',
  },
]

describe('wallet', () => {
  it('shows the balance, totals and recent transactions, with the way back to the dashboard', async () => {
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: true, data: { balance: 42.1, currency: 'USD' } })),
      http.get('/api/transactions', () => HttpResponse.json({ success: true, data: transactions })),
    )
    renderApp('/wallet', { user: endUser })
    expect(await screen.findByRole('heading', { name: 'Wallet', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('$42.10')).toBeInTheDocument()
    expect(await screen.findByText('$50.10')).toBeInTheDocument() // total deposited: completed deposits only
    expect(screen.getByText('$8.00')).toBeInTheDocument() // total spent
    const recent = within(screen.getByRole('region', { name: 'Recent transactions' }))
    expect(recent.getByText('acme.inf.nz')).toBeInTheDocument()
    expect(recent.getByText('Pending')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(screen.queryByRole('link', { name: 'API Settings' })).not.toBeInTheDocument()
  })

  it('shows the load error instead of a balance when the wallet cannot be read', async () => {
    server.use(
      http.get('/api/wallet', () => HttpResponse.json({ success: false, error: 'boom' }, { status: 500 })),
      http.get('/api/transactions', () => HttpResponse.json({ success: true, data: [] })),
    )
    renderApp('/wallet', { user: registrar })
    expect(await screen.findByText('Failed to load your wallet. Please try again.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/registrar-dashboard')
    expect(screen.getByRole('link', { name: 'API Settings' })).toHaveAttribute('href', '/registrar-dashboard?tab=api')
    expect(await screen.findByText('No transactions yet.')).toBeInTheDocument()
  })

  it('adds up completed money only, in cents', () => {
    expect(
      walletTotals([
        ...transactions,
        { id: 4, type: 'deposit', amount: 0.1, status: 'completed', paymentMethod: 'upi', createdAt: '' },
        { id: 5, type: 'deposit', amount: 0.2, status: 'completed', paymentMethod: 'upi', createdAt: '' },
        { id: 6, type: 'domain_renewal', amount: -8, status: 'failed', paymentMethod: 'wallet', createdAt: '' },
      ]),
    ).toEqual({ deposited: 50.4, spent: 8 })
  })
})
