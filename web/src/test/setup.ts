import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { resetToasts } from '@/components/toast/toastStore'
import { server } from './server'

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
