import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Toaster } from './Toaster'
import { toast } from './toastStore'

describe('toaster', () => {
  it('shows one toast at a time: a new toast replaces the current one', async () => {
    render(<Toaster />)
    act(() => {
      toast({ title: 'First toast', description: 'first' })
    })
    expect(await screen.findByText('First toast')).toBeInTheDocument()
    act(() => {
      toast({ variant: 'destructive', title: 'Second toast', description: 'second' })
    })
    expect(await screen.findByText('Second toast')).toBeInTheDocument()
    expect(screen.queryByText('First toast')).not.toBeInTheDocument()
    expect(screen.getAllByRole('status').length + screen.queryAllByRole('alert').length).toBeGreaterThan(0)
  })

  it('offers a close button', async () => {
    render(<Toaster />)
    act(() => {
      toast({ title: 'Closable' })
    })
    expect(await screen.findByRole('button', { name: 'Close' })).toBeInTheDocument()
  })
})
