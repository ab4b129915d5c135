/**
 * What an audit entry changed, in words an admin reads: the fields that
 * differ between its before and after, compared inside nested objects, lists
 * of named things (a bulk action's domains, the payment gateways) and values
 * the server stores as JSON text (the gateway list is one site setting).
 */

export interface Change {
  /** Where the change is, e.g. "featured" or "value › Bank Transfer › enabled". */
  field: string
  before: unknown
  after: unknown
}

export interface Described {
  /** A sentence for changes that are not field by field: "2 premium domains", "created"… */
  summary: string
  changes: Change[]
}

// Bookkeeping fields every save moves; they say nothing about the change.
const ignored = new Set(['updatedAt', 'createdAt'])

const bulkActions: Record<string, string> = {
  feature: 'featured',
  unfeature: 'unfeatured',
  makeAvailable: 'made available',
  makeUnavailable: 'made unavailable',
  delete: 'deleted',
}

/** Describes an entry's change from its recorded before and after. */
export function describeChange(before: unknown, after: unknown): Described {
  // A bulk action records the domains before it, and after it the action
  // with the domains as they are now (none after a delete).
  if (Array.isArray(before) && isObject(after) && typeof after.action === 'string') {
    const count = typeof after.changed === 'number' ? after.changed : before.length
    const verb = bulkActions[after.action] ?? after.action
    const summary = `${verb} ${count} ${count === 1 ? 'domain' : 'domains'}`
    if (!Array.isArray(after.domains)) return { summary: `${summary}: ${before.map(nameOf).join(', ')}`, changes: [] }
    return { summary, changes: diff(before, after.domains) }
  }
  if (!before) return { summary: 'created', changes: [] }
  if (!after) return { summary: 'deleted', changes: [] }
  const changes = diff(before, after)
  return { summary: changes.length === 0 ? 'saved without changes' : '', changes }
}

/** The leaf values that differ between a and b, with their paths. */
export function diff(before: unknown, after: unknown, path: string[] = [], out: Change[] = []): Change[] {
  const b = parsed(before)
  const a = parsed(after)
  if (isObject(b) && isObject(a)) {
    for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
      if (!ignored.has(key)) diff(b[key], a[key], [...path, key], out)
    }
  } else if (isNamedList(b) && isNamedList(a)) {
    // Items pair up by id, so a reordered or edited list reads item by item.
    const byKey = (list: Record<string, unknown>[]) => new Map(list.map((item) => [keyOf(item), item]))
    const bs = byKey(b)
    const as = byKey(a)
    for (const key of [...new Set([...as.keys(), ...bs.keys()])]) {
      const item = as.get(key) ?? bs.get(key)!
      diff(bs.get(key), as.get(key), [...path, nameOf(item)], out)
    }
  } else if (JSON.stringify(b) !== JSON.stringify(a)) {
    out.push({ field: path.join(' › '), before: b, after: a })
  }
  return out
}

/** A value as the log shows it: names for named things, on/off for switches. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return '—'
  if (typeof v === 'boolean') return v ? 'on' : 'off'
  if (typeof v === 'string' || typeof v === 'number') return String(v)
  if (isObject(v) && keyOf(v) !== undefined) return nameOf(v)
  if (Array.isArray(v) && v.every((item) => typeof item !== 'object')) return v.join(', ') || '—'
  return JSON.stringify(v)
}

/** JSON text (an object or list) read as what it holds; anything else as is. */
function parsed(v: unknown): unknown {
  if (typeof v !== 'string' || !/^\s*[[{]/.test(v)) return v
  try {
    return JSON.parse(v)
  } catch {
    return v
  }
}

function keyOf(o: Record<string, unknown>): string | undefined {
  const key = o.id ?? o.key ?? o.name
  return typeof key === 'string' || typeof key === 'number' ? String(key) : undefined
}

/** "ai.inf.nz" for a premium domain, "Bank Transfer" for a gateway, else its key. */
function nameOf(item: unknown): string {
  if (!isObject(item)) return String(item)
  if (typeof item.name === 'string') return item.name + (typeof item.extension === 'string' ? item.extension : '')
  return keyOf(item) ?? JSON.stringify(item)
}

function isNamedList(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((item) => isObject(item) && keyOf(item) !== undefined)
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
