import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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

// The app's pages, for the Go server: it answers a path no page has with
// 404 (the app still shows its not-found page), not 200. Read from the
// router's generated tree, so a new route needs nothing else.
function routeManifest(): Plugin {
  return {
    name: 'nameport:route-manifest',
    apply: 'build',
    closeBundle() {
      const tree = readFileSync(resolve(__dirname, 'src/routeTree.gen.ts'), 'utf8')
      const block = tree.match(/export interface FileRoutesByFullPath \{([^}]*)\}/)
      if (!block) throw new Error('route manifest: no FileRoutesByFullPath in src/routeTree.gen.ts')
      const paths = [...block[1].matchAll(/^\s*'([^']+)':/gm)].map((m) => m[1])
      if (!paths.includes('/')) throw new Error('route manifest: the tree has no / route')
      writeFileSync(resolve(__dirname, 'dist/routes.json'), JSON.stringify(paths.sort()) + '\n')
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
    routeManifest(),
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
