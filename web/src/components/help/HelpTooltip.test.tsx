import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { server } from '@/test/server'
import { renderApp } from '@/test/renderApp'
import { HelpProvider, useHelp } from './HelpProvider'
import { HelpTooltip } from './HelpTooltip'
import { helpAssistant } from './helpAssistant'
import { helpRoleFromPath } from './topics'

// The detailed content is a lazily loaded chunk; load it once up front so the
// fake clock alone decides when the simulated answers arrive.
beforeAll(async () => {
  await Promise.all([import('./helpContent'), import('./HelpPanel')])
})

let requests: string[]
const recordRequest = ({ request }: { request: Request }) => void requests.push(request.url)
beforeEach(() => {
  requests = []
  server.events.on('request:start', recordRequest)
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  // Testing Library waits on a setTimeout after each user event; it only
  // advances the fake clock itself when it sees a `jest` global.
  ;(globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) }
})
afterEach(() => {
  server.events.removeListener('request:start', recordRequest)
  vi.useRealTimers()
  delete (globalThis as { jest?: unknown }).jest
  vi.restoreAllMocks()
})

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

function renderHelp(topic = 'wallet', initialPath = '/wallet') {
  const events = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
  render(
    <HelpProvider initialPath={initialPath}>
      <HelpTooltip topic={topic} />
      <HelpTooltip topic="pricing" />
    </HelpProvider>,
  )
  return { events }
}

async function openPanel(events: ReturnType<typeof userEvent.setup>, name = 'Help: Wallet') {
  await events.click(screen.getByRole('button', { name }))
  await advance(0) // the panel's code is a lazy chunk
  return screen.getByRole('dialog', { name })
}

describe('help tooltip', () => {
  it('shows the short text after 700 ms of hover and skips the delay for the next within 300 ms', async () => {
    const { events } = renderHelp()
    const wallet = screen.getByRole('button', { name: 'Help: Wallet' })
    await events.hover(wallet)
    await advance(699)
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument()
    await advance(1)
    expect(screen.getByRole('tooltip')).toHaveTextContent(/Your prepaid balance/)

    await events.unhover(wallet)
    await advance(299)
    await events.hover(screen.getByRole('button', { name: 'Help: Pricing' }))
    await advance(0)
    expect(screen.getByRole('tooltip')).toHaveTextContent(/Regular domains cost \$8 a year/)
  })

  it('loads the detailed explanation once, after 800 ms, and switches Show More Details / Show Less', async () => {
    const explain = vi.spyOn(helpAssistant, 'explain')
    const { events } = renderHelp()
    const panel = await openPanel(events)
    expect(panel).toHaveTextContent('Your prepaid balance')

    await events.click(within(panel).getByRole('button', { name: 'Show More Details' }))
    expect(within(panel).getByText('Loading AI-powered explanation...')).toBeInTheDocument()
    await advance(799)
    expect(within(panel).getByText('Loading AI-powered explanation...')).toBeInTheDocument()
    await advance(1)
    expect(within(panel).queryByText('Loading AI-powered explanation...')).not.toBeInTheDocument()
    expect(panel).toHaveTextContent('Deposit between $1 and $10,000 at a time')
    expect(within(panel).getByText('Examples')).toBeInTheDocument()
    expect(within(panel).getByText('Tips')).toBeInTheDocument()
    expect(within(panel).getByText('Related topics')).toBeInTheDocument()

    await events.click(within(panel).getByRole('button', { name: 'Show Less' }))
    expect(panel).not.toHaveTextContent('Deposit between $1 and $10,000')
    await events.click(within(panel).getByRole('button', { name: 'Show More Details' }))
    expect(within(panel).queryByText('Loading AI-powered explanation...')).not.toBeInTheDocument()
    expect(panel).toHaveTextContent('Deposit between $1 and $10,000 at a time')
    expect(explain).toHaveBeenCalledTimes(1)
    expect(explain).toHaveBeenCalledWith(expect.objectContaining({ topic: 'wallet', userRole: 'user' }))
    expect(requests).toEqual([])
  })

  it('answers a follow-up question after 1000 ms from the topic content', async () => {
    const { events } = renderHelp()
    const panel = await openPanel(events)
    expect(within(panel).queryByLabelText('Your question')).not.toBeInTheDocument()
    await events.click(within(panel).getByRole('button', { name: 'Ask a follow-up question' }))

    const input = within(panel).getByLabelText('Your question')
    const ask = within(panel).getByRole('button', { name: 'Ask' })
    expect(ask).toBeDisabled()
    await events.type(input, '   ')
    expect(ask).toBeDisabled()
    await events.clear(input)
    await events.type(input, 'What is the maximum deposit?')
    expect(ask).toBeEnabled()
    await events.click(ask)

    expect(input).toHaveValue('')
    expect(ask).toBeDisabled()
    expect(within(panel).getByText('What is the maximum deposit?')).toBeInTheDocument()
    await advance(999)
    expect(within(panel).getByText('Thinking...')).toBeInTheDocument()
    await advance(1)
    expect(within(panel).queryByText('Thinking...')).not.toBeInTheDocument()
    expect(panel).toHaveTextContent('Deposit between $1 and $10,000 at a time')
    expect(requests).toEqual([])
  })

  it('shows the spec failure texts', async () => {
    vi.spyOn(helpAssistant, 'explain').mockRejectedValue(new Error('chunk failed'))
    vi.spyOn(helpAssistant, 'answer').mockRejectedValue(new Error('broken'))
    const { events } = renderHelp()
    const panel = await openPanel(events)
    await events.click(within(panel).getByRole('button', { name: 'Show More Details' }))
    await advance(0)
    expect(within(panel).getByRole('alert')).toHaveTextContent('Failed to load AI explanation. Please try again.')

    await events.click(within(panel).getByRole('button', { name: 'Ask a follow-up question' }))
    await events.type(within(panel).getByLabelText('Your question'), 'How do deposits work?')
    await events.click(within(panel).getByRole('button', { name: 'Ask' }))
    await advance(0)
    expect(
      within(panel).getByText("Sorry, I couldn't process your question at this time. Please try again later."),
    ).toBeInTheDocument()
  })

  it('has fallbacks for an unknown topic', async () => {
    const { events } = renderHelp('no-such-topic')
    const panel = await openPanel(events, 'Help: Help')
    expect(panel).toHaveTextContent('No help content available for this topic.')
    await events.click(within(panel).getByRole('button', { name: 'Show More Details' }))
    await advance(800)
    expect(panel).toHaveTextContent("I don't have specific information about this topic yet.")
  })

  it('closes with Escape and gives focus back to the icon', async () => {
    const { events } = renderHelp()
    await openPanel(events)
    await events.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Help: Wallet' })).toHaveFocus()
  })
})

describe('help provider', () => {
  it('derives the help role from the path at startup', () => {
    expect(helpRoleFromPath('/admin-dashboard')).toBe('admin')
    expect(helpRoleFromPath('/registrar-dashboard')).toBe('registrar')
    expect(helpRoleFromPath('/dashboard')).toBe('user')
    expect(helpRoleFromPath('/domain-management/7')).toBe('user')
    expect(helpRoleFromPath('/wallet')).toBe('user')
    expect(helpRoleFromPath('/')).toBe('guest')
    expect(helpRoleFromPath('/pricing')).toBe('guest')

    function Role() {
      const { userRole, aiAvailable, enabled } = useHelp()
      return <p>{`${userRole} ${aiAvailable} ${enabled}`}</p>
    }
    render(
      <HelpProvider initialPath="/registrar-dashboard">
        <Role />
      </HelpProvider>,
    )
    expect(screen.getByText('registrar true true')).toBeInTheDocument()
  })

  it('throws when the help context is used outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<HelpTooltip topic="wallet" />)).toThrow('useHelp must be used within a HelpProvider')
  })

  it('hides the help icons when help is switched off in the header', async () => {
    vi.useRealTimers()
    delete (globalThis as { jest?: unknown }).jest
    const { events } = renderApp('/no/such/page', { user: null })
    expect(await screen.findByRole('button', { name: 'Help: Page not found' })).toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Disable AI help tooltips' }))
    expect(screen.queryByRole('button', { name: 'Help: Page not found' })).not.toBeInTheDocument()
    await events.click(screen.getByRole('button', { name: 'Enable AI help tooltips' }))
    expect(screen.getByRole('button', { name: 'Help: Page not found' })).toBeInTheDocument()
  })
})
