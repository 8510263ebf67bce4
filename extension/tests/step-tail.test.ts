import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { HeldRequest } from '#protocol'
import { runAction, type RunDeps } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import { createStepTail } from '../lib/executor/step-tail'
import type { Hold } from '../lib/executor/write-barrier'
import { action, fakeWriteBarrier } from './fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

const request: HeldRequest = { method: 'POST', url: 'http://shop.example/api/drafts', origin: 'http://shop.example', path: '/api/drafts', kind: 'fetch', fields: [] }

/** A barrier and a guard as the tail sees them; `send` holds a write of the page's, `open` a site the guard stopped. */
function parts() {
  const { barrier, add, holds } = fakeWriteBarrier()
  let refused: string | null = null
  const guard = {
    engage: vi.fn(async () => {
      refused = null
    }),
    quiet: vi.fn(async () => undefined),
    navigating: vi.fn(() => false),
    refusals: vi.fn(() => ({ page: refused, frames: [] })),
    release: vi.fn(async () => undefined),
  }
  return {
    barrier,
    guard,
    send: (stepId: string) => add({ id: 'late1', reason: 'write-method', request, tabId: 0, taskId: 'task1', stepId, at: 0 }),
    open: (site: string) => (refused = site),
    holds,
  }
}

describe('createStepTail', () => {
  it('keeps the guard and the barrier until its time is up, then lets go of both', async () => {
    const p = parts()
    let fire = () => undefined as void
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard, now: () => 0, setTimer: (fn) => (fire = fn), clearTimer: () => undefined })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: 500, barred: true })
    expect(tail.running()).toBe(true)
    expect(p.guard.release).not.toHaveBeenCalled()
    fire()
    await vi.waitFor(() => expect(p.guard.release).toHaveBeenCalled())
    expect(p.barrier.stepEnded).toHaveBeenCalledWith(7)
    expect(tail.running()).toBe(false)
    // It caught nothing: the next step hears nothing.
    expect(await tail.end('task1')).toEqual({ late: null, handed: null })
  })

  it('tells the task’s next step what its handlers sent or opened, even after the tail ran out', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    p.send('a1')
    p.open('http://evil.example')
    expect(await tail.end('other-task')).toEqual({ late: null, handed: null })
    const { late } = await tail.end('task1')
    expect(late).toEqual({ after: 'a1', holds: [expect.objectContaining({ id: 'late1' })], refused: 'http://evil.example' })
    // Said once.
    expect((await tail.end('task1')).late).toBeNull()
  })

  it('does not speak of writes the person already refused', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    p.send('a1')
    await tail.end(null)
    await p.barrier.refuse(() => true)
    expect((await tail.end('task1')).late).toBeNull()
  })

  it('hands the guard and the barrier to the task’s next step when it caught nothing, letting go of neither', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    expect(await tail.end('task1', 'takes-over')).toEqual({ late: null, handed: { actionId: 'a1', tabId: 7 } })
    expect(tail.running()).toBe(false)
    expect(p.barrier.stepEnded).not.toHaveBeenCalled()
    expect(p.guard.release).not.toHaveBeenCalled()
  })

  it('keeps its barrier on through a step that only looks, and gives that step the guard', async () => {
    const p = parts()
    let fire = () => undefined as void
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard, setTimer: (fn) => (fire = fn), clearTimer: () => undefined })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    expect(await tail.end('task1', 'looks')).toEqual({ late: null, handed: null })
    expect(tail.running()).toBe(true)
    expect(tail.guarding()).toBe(false)
    // The page's debounced save comes while the screenshot is taken: still held, and heard by the step after.
    p.send('a1')
    fire()
    await vi.waitFor(() => expect(p.barrier.stepEnded).toHaveBeenCalledWith(7))
    // The guard is the looking step's now: the tail does not release it.
    expect(p.guard.release).not.toHaveBeenCalled()
    expect((await tail.end('task1', 'takes-over')).late).toMatchObject({ after: 'a1', holds: [{ id: 'late1' }] })
  })

  it('ends before a step the person approved: nothing of the tail is left to hold what that step sends', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    expect(await tail.end('task1', 'other')).toEqual({ late: null, handed: null })
    expect(tail.running()).toBe(false)
    expect(p.barrier.stepEnded).toHaveBeenCalledWith(7)
    expect(p.guard.release).toHaveBeenCalled()
  })

  it('hands nothing over when it caught something: the next step hears it instead', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    tail.begin({ taskId: 'task1', actionId: 'a1', tabId: 7, until: Date.now() + 10_000, barred: true })
    p.send('a1')
    const end = await tail.end('task1', 'takes-over')
    expect(end.handed).toBeNull()
    expect(end.late?.holds).toHaveLength(1)
    expect(p.barrier.stepEnded).toHaveBeenCalledWith(7)
  })
})

let world: TabWorld
let state: ExecutorState
beforeEach(() => {
  world = createTabWorld({ granted: ['http://shop.example', 'http://127.0.0.1'] })
  state = structuredClone(EMPTY_STATE)
  const tab = world.open('http://shop.example/editor')
  state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
})

function deps(p: ReturnType<typeof parts>, tail: ReturnType<typeof createStepTail>): RunDeps {
  const base = runDepsFor(world, state, { serverUrl: 'http://127.0.0.1:3000', touching: async () => undefined, readResult: async () => null })
  return { ...base, barrier: p.barrier, guard: p.guard, tail, navigationGraceMs: 5_000 }
}

describe('runAction with a step tail', () => {
  it('reports a step that fires handlers without waiting out the grace, leaving the guard and barrier to the tail', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    const started = Date.now()
    const obs = await runAction(deps(p, tail), action({ actionId: 'a1', type: 'type', params: { text: 'hello' }, followed: true }))
    expect(obs.status).toBe('done')
    // The grace is five seconds here: the step did not wait for it.
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(tail.running()).toBe(true)
    expect(p.guard.quiet).not.toHaveBeenCalled()
    expect(p.barrier.stepEnded).not.toHaveBeenCalled()
    await tail.end(null)
  })

  it('waits out the grace when no step follows at once (the model plans next, or the task ends): the step hears it itself', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    const obs = await runAction(deps(p, tail), action({ actionId: 'a1', type: 'type', params: { text: 'hello' } }))
    expect(obs.status).toBe('done')
    // The step itself waits for a navigation or a write until the grace is over.
    expect(p.guard.quiet).toHaveBeenCalledWith(expect.any(Number))
    expect(tail.running()).toBe(false)
    expect(p.barrier.stepEnded).toHaveBeenCalled()
  })

  it('holds the next step when the last one’s handlers sent a write after its report, naming that step', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    await runAction(deps(p, tail), action({ actionId: 'a1', type: 'type', params: { text: 'hello' }, followed: true }))
    p.send('a1')
    const next = await runAction(deps(p, tail), action({ actionId: 'a2' }))
    expect(next.status).toBe('failed')
    expect(next.errors?.[0]?.code).toBe('CONFIRMATION_REQUIRED')
    expect(next.heldAfter).toBe('a1')
    expect(next.held).toEqual([{ id: 'late1', reason: 'write-method', request }])
    expect(next.artifacts?.map((a) => a.label)).toEqual(['after'])
    // The held write waits for the person: moving on did not refuse it, and the click was never sent.
    expect(p.holds()).toHaveLength(1)
    expect(p.barrier.engage).toHaveBeenCalledTimes(1)
  })

  it('fails the next step with the site the last one’s handlers tried to open after its report', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    await runAction(deps(p, tail), action({ actionId: 'a1', type: 'type', params: { text: 'hello' }, followed: true }))
    p.open('http://evil.example')
    const next = await runAction(deps(p, tail), action({ actionId: 'a2' }))
    expect(next.status).toBe('failed')
    expect(next.errors?.[0]).toMatchObject({ code: 'PERMISSION_DENIED', origin: 'http://evil.example' })
    expect(p.barrier.engage).toHaveBeenCalledTimes(1)
  })

  it('runs the next step as usual when the tail caught nothing', async () => {
    const p = parts()
    const tail = createStepTail({ barrier: p.barrier, guard: p.guard })
    await runAction(deps(p, tail), action({ actionId: 'a1', type: 'type', params: { text: 'hello' }, followed: true }))
    const next = await runAction(deps(p, tail), action({ actionId: 'a2' }))
    expect(next.status).toBe('done')
    expect(next.heldAfter).toBeUndefined()
    expect(p.barrier.engage).toHaveBeenCalledTimes(2)
    await tail.end(null)
  })
})
