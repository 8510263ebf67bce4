import { nanoid } from 'nanoid'
import { expect, it } from 'vitest'
import { emptyUsage, type Observation, type TaskStatus } from '#protocol'
import type { TaskStore } from '../../server/lib/tasks/deps'
import type { TaskRecord } from '../../server/lib/tasks/task-record'

export interface StoreBackend {
  /** The store one server opens. Each call is a fresh instance (no cache shared with the others) on the same tasks. */
  open(): TaskStore
  /**
   * The store another server would use to look at the same tasks. A file store belongs to one server, so there
   * it is the same instance; a shared store gives a separate one.
   */
  otherServer(first: TaskStore): TaskStore
  /** Leaves the task's lock taken by a holder that died without releasing it. */
  crashWhileHolding(taskId: string): Promise<void>
}

export function task(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString()
  return {
    id: nanoid(16),
    rev: 0,
    goal: 'contract',
    status: 'RUNNING',
    mode: 'script',
    createdAt: now,
    updatedAt: now,
    queue: [],
    seq: 0,
    current: null,
    steps: [],
    lastOutcome: null,
    usage: emptyUsage(),
    ...overrides,
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1))

/** What every TaskStore does, whatever it is stored in. */
export function testTaskStore(backend: StoreBackend) {
  it('gets what it created, and null for a task it never saw', async () => {
    const store = backend.open()
    const t = task({ goal: 'buy milk' })
    await store.create(t)
    expect(await store.get(t.id)).toEqual(t)
    expect(await backend.open().get(t.id)).toEqual(t)
    expect(await store.get('no_such_task')).toBeNull()
  })

  it('saves what update returns with the next rev, and nothing when it returns no task', async () => {
    const store = backend.open()
    const t = task()
    await store.create(t)
    const result = await store.update(t.id, (current) => {
      current.status = 'PAUSED'
      return { task: current, result: 'paused' }
    })
    expect(result).toBe('paused')
    const saved = (await store.get(t.id))!
    expect(saved).toMatchObject({ status: 'PAUSED', rev: 1 })
    expect(saved.updatedAt >= t.updatedAt).toBe(true)
    expect(await store.update(t.id, () => ({ result: 'looked' }))).toBe('looked')
    expect(await store.get(t.id)).toEqual(saved)
  })

  it('keeps a staged record beside the task, for the next process to read, without changing the task', async () => {
    const store = backend.open()
    const t = task({ auditSeq: 3 })
    await store.create(t)
    expect(await store.staged(t.id)).toBeNull()
    await store.stage({ ...t, status: 'SUCCEEDED', auditSeq: 5 })
    expect(await backend.open().staged(t.id)).toMatchObject({ id: t.id, status: 'SUCCEEDED', auditSeq: 5 })
    expect(await store.get(t.id)).toEqual(t)
  })

  it('hands update a copy: a change that throws leaves the task as it was', async () => {
    const store = backend.open()
    const t = task()
    await store.create(t)
    await expect(
      store.update(t.id, (current) => {
        current.status = 'FAILED'
        throw new Error('planner exploded')
      }),
    ).rejects.toThrow('planner exploded')
    expect(await store.get(t.id)).toEqual(t)
  })

  it('refuses to update a task that does not exist with NOT_FOUND', async () => {
    await expect(backend.open().update('missing_task', (t) => ({ task: t, result: 1 }))).rejects.toMatchObject({ statusCode: 404 })
  })

  it('lists every task, and only the unfinished ones as active, as another server changes them', async () => {
    const store = backend.open()
    const other = backend.otherServer(store)
    const running = task()
    const finishing = task()
    await store.create(running)
    await store.create(finishing)
    expect((await store.listActive()).map((t) => t.id)).toEqual(expect.arrayContaining([running.id, finishing.id]))
    await other.update(finishing.id, (t) => ({ task: { ...t, status: 'SUCCEEDED' as TaskStatus }, result: null }))
    const started = task()
    await other.create(started)
    const active = (await store.listActive()).map((t) => t.id)
    expect(active).toEqual(expect.arrayContaining([running.id, started.id]))
    expect(active).not.toContain(finishing.id)
    const all = (await store.list()).map((t) => t.id)
    expect(all).toEqual(expect.arrayContaining([running.id, finishing.id, started.id]))
  })

  it('keeps the latest observation of each task', async () => {
    const store = backend.open()
    const t = task()
    await store.create(t)
    expect(await store.getObservation(t.id)).toBeNull()
    const seen = (url: string): Observation => ({ status: 'done', url, errors: [] }) as unknown as Observation
    await store.setObservation(t.id, seen('http://a.test/'))
    await store.setObservation(t.id, seen('http://b.test/'))
    expect(await backend.otherServer(store).getObservation(t.id)).toMatchObject({ url: 'http://b.test/' })
  })

  it('serialises updates from two servers: none is lost, and rev goes up by exactly one each time', async () => {
    const a = backend.open()
    const b = backend.open()
    const t = task()
    await a.create(t)
    const seenRevs: number[] = []
    const bump = (store: TaskStore) =>
      store.update(t.id, async (current) => {
        seenRevs.push(current.rev)
        const seq = current.seq
        // Yield between read and write, as real changes do (audit appends): an unlocked store loses updates here.
        await tick()
        current.seq = seq + 1
        return { task: current, result: current.rev }
      })
    const rounds = 20
    await Promise.all(Array.from({ length: rounds }, (_, i) => bump(i % 2 ? a : b)))
    const saved = (await backend.open().get(t.id))!
    expect(saved.seq).toBe(rounds)
    expect(saved.rev).toBe(rounds)
    expect([...seenRevs].sort((x, y) => x - y)).toEqual(Array.from({ length: rounds }, (_, i) => i))
  })

  it('releases the lock when a change throws', async () => {
    const store = backend.open()
    const t = task()
    await store.create(t)
    await expect(store.update(t.id, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(backend.open().update(t.id, (current) => ({ task: current, result: 'after' }))).resolves.toBe('after')
    expect((await store.get(t.id))!.rev).toBe(1)
  })

  it('recovers from a holder that crashed with the lock taken', async () => {
    const store = backend.open()
    const t = task()
    await store.create(t)
    await backend.crashWhileHolding(t.id)
    await expect(store.update(t.id, (current) => ({ task: current, result: 'recovered' }))).resolves.toBe('recovered')
    expect((await store.get(t.id))!.rev).toBe(1)
  })
}
