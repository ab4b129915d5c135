import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { actionLabels } from './AuditLog'

describe('audit log labels', () => {
  it('has words for every action the server records', () => {
    // The actions are the string constants of internal/audit (audit.go).
    const source = readFileSync(resolve(process.cwd(), '../internal/audit/audit.go'), 'utf8') // vitest runs in web/
    const actions = [...source.matchAll(/Action\w+\s*=\s*"([a-z_]+\.[a-z_]+)"/g)].map((m) => m[1])
    expect(actions.length).toBeGreaterThan(20)
    expect(actions.filter((action) => !(action in actionLabels))).toEqual([])
  })
})
