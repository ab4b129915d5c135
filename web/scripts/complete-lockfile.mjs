// Adds the lockfile entries of Rollup's native packages for other platforms
// when `npm install` left them out.
//
// Why: `npm ci` refuses a lockfile that lacks any optional dependency of a
// locked package. A registry mirror that does not carry every platform
// package (as on the build machines here) makes `npm install` silently drop
// the ones it cannot fetch, and the lockfile then fails `npm ci`. The added
// entries carry version, os, cpu and libc (inferred from the package name),
// which is all npm needs to skip them on other platforms; on their own
// platform npm fetches them by version.
//
// Usage, after changing dependencies: npm install && node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const file = fileURLToPath(new URL('../package-lock.json', import.meta.url))
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages
const added = []

for (const meta of Object.values(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`
    if (packages[key]) continue
    const match = name.match(/^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z0-9]+))?$/)
    if (!match) {
      console.error(
        `${name} is missing from the lockfile and its platform cannot be inferred; install it on a full registry`,
      )
      process.exitCode = 1
      continue
    }
    const [, os, cpu, abi] = match
    const entry = { version, cpu: [cpu] }
    if (meta.dev) entry.dev = true
    if (os === 'linux') entry.libc = [abi?.startsWith('musl') ? 'musl' : 'glibc']
    Object.assign(entry, { license: 'MIT', optional: true, os: [os] })
    packages[key] = entry
    added.push(name)
  }
}

// npm keeps the root entry first and the rest sorted by path.
const [rootKey, ...keys] = Object.keys(packages)
keys.sort()
lock.packages = Object.fromEntries([rootKey, ...keys].map((key) => [key, packages[key]]))
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(added.length ? `added ${added.length} entries: ${added.join(', ')}` : 'lockfile already complete')
