import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { config as zodConfig } from 'zod/mini'
import { HelpProvider } from './components/help/HelpProvider'
import { createQueryClient } from './lib/queryClient'
import { createAppRouter } from './router'
import './index.css'

// Zod otherwise probes for eval with new Function(''), which our
// Content-Security-Policy (no unsafe-eval) reports as a violation.
zodConfig({ jitless: true })

const queryClient = createQueryClient()
const router = createAppRouter(queryClient)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <HelpProvider>
        <RouterProvider router={router} />
      </HelpProvider>
    </QueryClientProvider>
  </StrictMode>,
)
