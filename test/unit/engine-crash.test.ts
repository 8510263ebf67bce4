import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage, type Storage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAuditLog } from '../../server/lib/audit/log'
import { inProcessEngine } from '../support/engine'

const source = { clientId: 'c1' }
let dir: string
let storage: Storage
/** The key whose next write the process dies in, as a SIGKILL between the audit and the save would. */
let dieWriting: string | null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-crash-'))
  storage = createStorage()
  const write = storage.setItem.bind(storage)
  dieWriting = null
  storage.setItem = (async (key: string, value: unknown, opts?: unknown) => {
    if (key === dieWriting) {
      dieWriting = null
      throw new Error('the process was killed here')
    }
    return write(key, value as never, opts as never)
  }) as Storage['setItem']
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** One server process: a new engine and a new audit log over the same storage and audit folder. */
function boot() {
  const audit = createAuditLog({ dir, fsync: false })
  const engine = inProcessEngine(storage, audit)
  return { engine, audit }
}

const observation = { status: 'done' as const, url: 'http://shop.example/', title: 'Shop', elementTree: '', visibleTextSnippet: '', errors: [], timing: {} }
const count = (events: { type: string; actionId?: string }[], type: string, actionId: string) =>
  events.filter((e) => e.type === type && e.actionId === actionId).length

describe('a server killed after the audit took a change and before the task was saved', () => {
  it('saves that change on the next start instead of dispatching the action a second time', async () => {
    const first = boot()
    const { taskId } = await first.engine.start({ goal: 'look', clientId: 'c1', script: [{ type: 'observe' }] }, source)
    dieWriting = `tasks:${taskId}`
    await expect(first.engine.next({ clientId: 'c1', taskId }, source)).rejects.toThrow(/killed/)
    const dispatched = (await first.audit.read(taskId)).find((e) => e.type === 'action.dispatched')!

    const second = boot()
    await second.engine.recover()
    const again = await second.engine.next({ clientId: 'c1', taskId }, source)
    expect(again.action?.actionId).toBe(dispatched.actionId)
    expect(count(await second.audit.read(taskId), 'action.dispatched', dispatched.actionId!)).toBe(1)
  })

  it('takes the report it had written down as the one it got: the repeated report is a duplicate, observed once', async () => {
    const first = boot()
    const { taskId } = await first.engine.start({ goal: 'look', clientId: 'c1', script: [{ type: 'observe' }] }, source)
    const { action } = await first.engine.next({ clientId: 'c1', taskId }, source)
    dieWriting = `tasks:${taskId}`
    const report = { taskId, actionId: action!.actionId, observation }
    await expect(first.engine.report(report, source)).rejects.toThrow(/killed/)

    const second = boot()
    await second.engine.recover()
    expect(await second.engine.report(report, source)).toMatchObject({ accepted: true, duplicate: true })
    const events = await second.audit.read(taskId)
    expect(count(events, 'report.received', action!.actionId)).toBe(1)
    expect(count(events, 'observation', action!.actionId)).toBe(1)
    const view = await second.engine.status(taskId)
    expect(view.task.status).toBe('SUCCEEDED')
  })

  it('leaves a staged change alone when its events never reached the audit', async () => {
    const first = boot()
    const { taskId } = await first.engine.start({ goal: 'look', clientId: 'c1', script: [{ type: 'observe' }] }, source)
    // Killed while staging: nothing of the change was written.
    dieWriting = `staged:${taskId}`
    await expect(first.engine.next({ clientId: 'c1', taskId }, source)).rejects.toThrow(/killed/)

    const second = boot()
    await second.engine.recover()
    const { action } = await second.engine.next({ clientId: 'c1', taskId }, source)
    const events = await second.audit.read(taskId)
    expect(events.filter((e) => e.type === 'action.dispatched').map((e) => e.actionId)).toEqual([action!.actionId])
  })
})
