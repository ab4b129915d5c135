import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { resetToasts } from '@/components/toast/toastStore'
import { server } from './server'

// Tests check behaviour, not speed: on a loaded two-core CI machine a toast
// can take longer than Testing Library's default second to appear.
configure({ asyncUtilTimeout: 5000 })

// jsdom has no layout: the router's scroll restoration calls scrollTo.
window.scrollTo = () => {}
Element.prototype.scrollIntoView = function scrollIntoView() {}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  cleanup()
  server.resetHandlers()
  resetToasts()
})
afterAll(() => server.close())
