// Prints the JavaScript each route needs before it can show anything: the
// entry chunk, the route's own chunk and every chunk they import statically,
// raw and gzipped. Builds into a temporary folder with a manifest, or reads
// the one given as --dist DIR. Exits 1 when the landing route is over its
// budget (150 KB gzipped). --tsv prints only "route<TAB>gzip bytes" lines, for
// scripts/bench.sh.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const LANDING_BUDGET = 150 * 1024
const web = resolve(import.meta.dirname, '..')
const distArg = process.argv.indexOf('--dist')
let dist = distArg > 0 ? resolve(process.argv[distArg + 1]) : ''
let temporary = false
if (!dist) {
  dist = mkdtempSync(join(tmpdir(), 'nameport-web-'))
  temporary = true
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: web,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

try {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))
  const sizes = new Map()
  const sizeOf = (file) => {
    if (!sizes.has(file)) {
      const bytes = readFileSync(join(dist, file))
      sizes.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length })
    }
    return sizes.get(file)
  }
  // files returns the chunk of key and everything it imports statically.
  const files = (key, into = new Set()) => {
    const chunk = manifest[key]
    if (!chunk || into.has(chunk.file)) return into
    into.add(chunk.file)
    for (const imported of chunk.imports ?? []) files(imported, into)
    return into
  }

  const routesDir = join(web, 'src', 'routes')
  const routeFiles = []
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.tsx$/.test(name) && name !== '__root.tsx') routeFiles.push(relative(web, path))
    }
  }
  walk(routesDir)

  const pathOf = (file) => {
    const p = '/' + relative('src/routes', file).replace(/\.tsx$/, '').replace(/(^|\/)index$/, '')
    return p.replace(/\$(\w+)/g, ':$1').replace(/\/$/, '') || '/'
  }
  const rows = routeFiles
    .map((file) => {
      const set = files('index.html')
      const key = `${file}?tsr-split=component`
      const split = Boolean(manifest[key])
      files(key, set)
      let raw = 0
      let gzip = 0
      for (const f of set) {
        raw += sizeOf(f).raw
        gzip += sizeOf(f).gzip
      }
      return { route: pathOf(file), chunks: set.size, raw, gzip, split }
    })
    .sort((a, b) => a.route.localeCompare(b.route))

  const landing = rows.find((r) => r.route === '/')
  if (process.argv.includes('--tsv')) {
    for (const r of rows) console.log(`${r.route}\t${r.gzip}`)
  } else {
    printTable(rows, landing)
  }
  if (landing.gzip > LANDING_BUDGET) {
    console.error('The landing route is over its budget.')
    process.exitCode = 1
  }
} finally {
  if (temporary) rmSync(dist, { recursive: true, force: true })
}

function printTable(rows, landing) {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7)
  console.log('Initial JavaScript per route (entry + route chunk + their static imports)\n')
  console.log('route'.padEnd(32) + 'chunks'.padStart(7) + '    raw KB' + '   gzip KB')
  for (const r of rows) {
    console.log(r.route.padEnd(32) + String(r.chunks).padStart(7) + kb(r.raw).padStart(10) + kb(r.gzip).padStart(10) + (r.split ? '' : '  (in the entry chunk)'))
  }
  console.log(`\nLanding route: ${kb(landing.gzip).trim()} KB gzipped (budget ${LANDING_BUDGET / 1024} KB)`)
}
