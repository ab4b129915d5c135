import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { JobsPanel } from './JobsPanel'

describe('JobsPanel', () => {
  it('explains the jobs and links to River UI, where they are managed', () => {
    render(<JobsPanel />)
    expect(screen.getByRole('heading', { name: 'Background Jobs' })).toBeInTheDocument()
    expect(screen.getByText('notify.send')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open River UI' })).toHaveAttribute('href', '/admin/river/')
  })
})
