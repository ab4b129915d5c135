import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
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

// The API reference at /docs and /docs/v1 (internal/api/docs.go) is Redoc's
// standalone bundle, served from dist/docs/ like the app's files: nothing is
// loaded from a CDN at run time. Its sidebar footer shows Redocly's logo from
// cdn.redoc.ly, the bundle's one request elsewhere; the copy drops that
// image's address (the link to Redocly stays) so the page stays on its origin.
function redocBundle(): Plugin {
  let outDir = resolve(__dirname, 'dist')
  return {
    name: 'nameport:redoc-bundle',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      const from = resolve(__dirname, 'node_modules/redoc/bundles')
      const to = resolve(outDir, 'docs')
      const logo = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"'
      const bundle = readFileSync(resolve(from, 'redoc.standalone.js'), 'utf8')
      if (bundle.split(logo).length !== 2) throw new Error('redoc bundle: the logo address to drop is not there once')
      mkdirSync(to, { recursive: true })
      writeFileSync(resolve(to, 'redoc.standalone.js'), bundle.replace(logo, 'src:""'))
      copyFileSync(resolve(from, 'redoc.standalone.js.LICENSE.txt'), resolve(to, 'redoc.standalone.js.LICENSE.txt'))
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
    redocBundle(),
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
