import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import { tanstackRouter } from '@tanstack/router-plugin/vite'

// Tremor ships without a "sideEffects" flag, so Rollup keeps every module it
// imports. Declaring its modules side-effect free lets unused components drop out.
function tremorSideEffectFree(): Plugin {
  return {
    name: 'nameport:tremor-side-effect-free',
    enforce: 'pre',
    transform(_code, id) {
      if (id.includes('/node_modules/@tremor/')) return { code: _code, map: null, moduleSideEffects: false }
      return null
    },
  }
}

// The Go binary embeds web/dist, and the repository keeps web/dist/.gitkeep so
// the embed pattern matches before the first build. Vite empties dist, so put it back.
function keepDistPlaceholder(): Plugin {
  return {
    name: 'nameport:keep-dist-gitkeep',
    apply: 'build',
    closeBundle() {
      const dist = resolve(__dirname, 'dist')
      mkdirSync(dist, { recursive: true })
      writeFileSync(resolve(dist, '.gitkeep'), '')
    },
  }
}

// The Go server of `make run`; NAMEPORT_BACKEND points the dev server elsewhere.
const backend = process.env.NAMEPORT_BACKEND ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tremorSideEffectFree(),
    keepDistPlaceholder(),
  ],
  resolve: { alias: { '@': resolve(__dirname, 'src') } },
  server: {
    proxy: {
      '/api': backend,
      '/v1': backend,
      '/healthz': backend,
    },
  },
  build: { outDir: 'dist', emptyOutDir: true },
})
