import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReportBody } from '#protocol'
import { createAuditLog } from '../../server/lib/audit/log'
import { inProcessEngine } from '../support/engine'

const source = { clientId: 'c1' }
let dir: string
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'tandem-exchanges-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const page: ReportBody['observation'] = { status: 'done', url: 'http://shop.example/', title: 'Shop', elementTree: '', visibleTextSnippet: '', errors: [], timing: {} }

describe('the questions a task asked, in its status', () => {
  it('lists each question with the person’s answer, after the steps before it', async () => {
    const engine = inProcessEngine(createStorage(), createAuditLog({ dir, fsync: false }))
    const { taskId } = await engine.start(
      { goal: 'order', clientId: 'c1', script: [{ type: 'navigate', url: 'http://shop.example/' }, { type: 'ask_user', question: 'Which size?' }, { type: 'scroll', direction: 'down' }] },
      source,
    )
    const first = (await engine.next({ clientId: 'c1', taskId }, source)).action!
    await engine.report({ taskId, actionId: first.actionId, observation: page }, source)
    expect((await engine.status(taskId)).task.status).toBe('WAITING_USER')
    expect((await engine.status(taskId)).exchanges).toBeUndefined()
    await engine.answer({ taskId, answer: 'Large' }, source)
    const view = await engine.status(taskId)
    expect(view.exchanges).toEqual([{ question: 'Which size?', answer: 'Large', at: expect.any(String) }])
    expect(view.exchanges![0]!.at >= view.steps[0]!.at).toBe(true)
  })
})
