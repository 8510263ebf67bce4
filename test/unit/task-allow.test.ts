import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_ALLOWED_WRITES, MAX_ASK_ALWAYS, MAX_TASK_ALLOWED_WRITES, type Action, type HeldRequest, type ScriptStep, type WriteAllowRule } from '#protocol'
import { createAuditLog } from '../../server/lib/audit/log'
import { createAllowedWrites } from '../../server/lib/state/allowed-writes'
import { createAskAlways } from '../../server/lib/state/ask-always'
import { createTaskStore } from '../../server/lib/state/store'
import { allowedByWhich, allowForTask, allowWritesFor, rulesOfRelease } from '../../server/lib/tasks/task-allow'
import type { TaskRecord } from '../../server/lib/tasks/task-record'
import { inProcessEngine } from '../support/engine'

const request = (path: string, extra: Partial<HeldRequest> = {}): HeldRequest => ({
  method: 'post',
  url: `https://shop.test${path}`,
  origin: 'https://shop.test',
  path,
  kind: 'fetch',
  fields: [],
  ...extra,
})
const rule = (path: string): WriteAllowRule => ({ site: 'https://shop.test', method: 'POST', path })
const release = (requests: unknown[]): Action => ({
  taskId: 't1',
  actionId: 'rel1',
  seq: 2,
  type: 'release',
  params: { holds: requests.map((_, i) => `h${i}`), requests },
  risk: 'high',
  requiresConfirmation: true,
})

describe('the rules a task keeps for itself', () => {
  it('makes one rule per kind of held request, ids as *, and none from an action that holds nothing', () => {
    const rules = rulesOfRelease(release([request('/api/cart/41/items'), request('/api/cart/42/items'), request('/x', { origin: '' }), { junk: true }]))
    expect(rules).toEqual([rule('/api/cart/*/items')])
    expect(rulesOfRelease({ ...release([request('/a')]), type: 'click' })).toEqual([])
  })

  it('adds each rule once and keeps the newest MAX_TASK_ALLOWED_WRITES', () => {
    const task = {} as TaskRecord
    allowForTask(task, [rule('/a'), rule('/a')])
    allowForTask(task, [rule('/a')])
    expect(task.allowWrites).toEqual([rule('/a')])
    for (let i = 0; i < MAX_TASK_ALLOWED_WRITES + 5; i++) allowForTask(task, [rule(`/p${i}`)])
    expect(task.allowWrites).toHaveLength(MAX_TASK_ALLOWED_WRITES)
    expect(task.allowWrites?.at(-1)).toEqual(rule(`/p${MAX_TASK_ALLOWED_WRITES + 4}`))
  })

  it('sends the task’s rules first, then the site’s, once each and within what an action carries', () => {
    const site = Array.from({ length: MAX_ALLOWED_WRITES }, (_, i) => rule(`/s${i}`))
    const all = allowWritesFor({ allowWrites: [rule('/mine'), rule('/s0')] }, site)
    expect(all).toHaveLength(MAX_ALLOWED_WRITES)
    expect(all.slice(0, 3)).toEqual([rule('/mine'), rule('/s0'), rule('/s1')])
    expect(allowWritesFor({}, [])).toEqual([])
  })

  it('names the rule that let a write through and whose it is, the site’s when both', () => {
    const cart = request('/api/cart/9/items')
    expect(allowedByWhich(cart, { allowWrites: [rule('/api/cart/*/items')] }, [])).toEqual({ rule: rule('/api/cart/*/items'), scope: 'task' })
    expect(allowedByWhich(cart, { allowWrites: [rule('/api/cart/*/items')] }, [rule('/api/cart/*/items')])).toEqual({ rule: rule('/api/cart/*/items'), scope: 'site' })
    expect(allowedByWhich(cart, {}, [])).toEqual({ rule: rule('/api/cart/*/items') })
    expect(allowedByWhich(request('/x', { origin: '' }), {}, [])).toEqual({})
  })
})

describe('confirming a held write for the rest of the task, in the engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-task-allow-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const script: ScriptStep[] = [{ type: 'click', selector: '#add' }, { type: 'click', selector: '#more' }]
  const source = { clientId: 'c1' }
  const page = { status: 'done' as const, url: 'https://shop.test/', title: 'Shop', elementTree: '', visibleTextSnippet: '', errors: [], timing: {} }

  it('keeps the rules on the stored task, sends them with its next actions only, and makes no site rule', async () => {
    const storage = createStorage()
    const allowedWrites = createAllowedWrites(storage)
    const engine = inProcessEngine(storage, createAuditLog({ dir, fsync: false }), { allowedWrites, askAlways: createAskAlways(storage) })
    const { taskId } = await engine.start({ goal: 'fill the cart', script, clientId: 'c1' }, source)
    const click = (await engine.next({ clientId: 'c1', taskId, waitMs: 2000 }, source)).action!
    const held = { id: 'h1', reason: 'write-method', request: request('/api/cart/41/items') }
    await engine.report({ taskId, actionId: click.actionId, observation: { ...page, held: [held] } }, source)
    const pending = (await engine.status(taskId)).pendingConfirmation!
    await engine.confirm({ taskId, actionId: pending.actionId, approved: true, forTask: true }, source)

    const stored = await createTaskStore(storage).get(taskId)
    expect(stored?.allowWrites).toEqual([rule('/api/cart/*/items')])
    expect((await engine.next({ clientId: 'c1', taskId, waitMs: 2000 }, source)).action?.allowWrites).toEqual([rule('/api/cart/*/items')])
    expect(await allowedWrites.list()).toEqual([])
    const other = await engine.start({ goal: 'another', script, clientId: 'c1' }, source)
    expect((await engine.next({ clientId: 'c1', taskId: other.taskId, waitMs: 2000 }, source)).action?.allowWrites).toBeUndefined()
  })
})

describe('the harmless kinds always asked about, as the server keeps them', () => {
  it('keeps one rule per site and kind, whatever the site’s case, and at most MAX_ASK_ALWAYS', async () => {
    const kept = createAskAlways(createStorage())
    await kept.add([{ site: 'Shop.test', kind: 'cart' }, { site: 'shop.test', kind: 'cart' }], 'c1')
    expect(await kept.list()).toEqual([{ site: 'shop.test', kind: 'cart', at: expect.any(String), by: 'c1' }])
    expect(await kept.forget({ site: 'SHOP.test', kind: 'cart' })).toEqual([])
    for (let i = 0; i < MAX_ASK_ALWAYS + 2; i++) await kept.add([{ site: `s${i}.test`, kind: 'draft' }], 'c1')
    expect(await kept.list()).toHaveLength(MAX_ASK_ALWAYS)
  })
})
