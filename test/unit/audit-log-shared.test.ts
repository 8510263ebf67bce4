import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { verifyChain } from '../../server/lib/audit/chain'
import { createAuditLog } from '../../server/lib/audit/log'
import { tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = tempDir()))
afterEach(() => cleanup())

// Two logs over one folder stand for two servers sharing TANDEM_AUDIT_DIR: each keeps its own cache of every
// file's head. Appends to one task take turns (the task's lock), as the engine makes them.
describe('an audit dir shared by several servers', () => {
  it('continues the chain the other server extended, so it never forks', async () => {
    const a = createAuditLog({ dir, fsync: false })
    const b = createAuditLog({ dir, fsync: false })
    const seqs: number[] = []
    for (let i = 0; i < 12; i++) {
      const log = i % 3 === 0 ? b : a
      if (i % 4 === 3) seqs.push(...(await log.appendMany('shared', [{ type: 'tick', data: { i } }, { type: 'tock', data: { i } }])).map((e) => e.seq))
      else seqs.push((await log.append('shared', { type: 'tick', data: { i } })).seq)
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
    const raw = readFileSync(join(dir, 'shared', 'events.jsonl'), 'utf8')
    expect(verifyChain(raw)).toMatchObject({ ok: true, count: seqs.length })
  })

  it('reads what the other server appended after it first looked', async () => {
    const a = createAuditLog({ dir, fsync: false })
    const b = createAuditLog({ dir, fsync: false })
    await a.append('t', { type: 'task.created', data: {} })
    expect(await b.read('t')).toHaveLength(1)
    const second = await a.append('t', { type: 'action.proposed', data: {} })
    expect((await b.read('t')).map((e) => e.seq)).toEqual([1, 2])
    expect(await b.head('t')).toEqual({ seq: 2, hash: second.hash })
    expect((await b.snapshot('t')).bytes).toBe(readFileSync(join(dir, 't', 'events.jsonl')).length)
    const third = await b.append('t', { type: 'report.received', data: {} })
    expect(third).toMatchObject({ seq: 3, prevHash: second.hash })
    expect((await a.read('t')).map((e) => e.hash)).toEqual((await b.read('t')).map((e) => e.hash))
  })
})
