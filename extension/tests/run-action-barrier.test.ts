import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Action, HeldRequest } from '#protocol'
import { runAction, type RunDeps } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState } from '../lib/executor/state'
import type { Hold } from '../lib/executor/write-barrier'
import { action, fakeWriteBarrier } from './fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

const request: HeldRequest = { method: 'POST', url: 'http://shop.example/api/orders', origin: 'http://shop.example', path: '/api/orders', kind: 'fetch', fields: [] }

/** A barrier whose page sends a write when the step's action reaches it (if `sends`). */
function fakeBarrier(sends: boolean, engages = true) {
  const { barrier, add, holds } = fakeWriteBarrier()
  barrier.engage.mockImplementation(async () => engages)
  const hold = (stepId: string) => {
    if (sends) add({ id: 'r1', reason: 'write-method', request, tabId: 0, taskId: 'task1', stepId, at: 0 })
  }
  return { barrier, hold, holds }
}

let world: TabWorld
let state: ExecutorState
beforeEach(() => {
  world = createTabWorld({ granted: ['http://shop.example', 'http://127.0.0.1'] })
  state = structuredClone(EMPTY_STATE)
  const tab = world.open('http://shop.example/cart')
  state.tasks.task1 = { tabId: tab.id, closed: false, at: Date.now() }
})

function deps(barrier: ReturnType<typeof fakeBarrier>): RunDeps {
  const base = runDepsFor(world, state, { serverUrl: 'http://127.0.0.1:3000', touching: async () => undefined, readResult: async () => null })
  const ask = base.content.ask
  // The page's handler sends its write as the click lands.
  const content = { ...base.content, ask: (async (tabId: number, req: { kind: string; action?: Action }, ms: number) => {
    if (req.kind === 'act' && req.action) barrier.hold(req.action.actionId)
    return (ask as never as (...a: unknown[]) => unknown)(tabId, req, ms)
  }) as never }
  return { ...base, content, barrier: barrier.barrier, navigationGraceMs: 20 }
}

describe('runAction with the write barrier', () => {
  it('ends an unapproved step that sent a write with the write held and a picture of the page as it is', async () => {
    const b = fakeBarrier(true)
    const obs = await runAction(deps(b), action({ actionId: 'a1' }))
    expect(b.barrier.engage).toHaveBeenCalledWith(expect.any(Number), expect.objectContaining({ taskId: 'task1', stepId: 'a1' }))
    expect(obs.status).toBe('done')
    expect(obs.held).toEqual([{ id: 'r1', reason: 'write-method', request }])
    expect(obs.artifacts?.map((a) => a.label)).toEqual(['after'])
    expect(b.barrier.stepEnded).toHaveBeenCalled()
  })

  it('fails a step during which a WebSocket message left unheld, naming the socket and the size', async () => {
    const b = fakeBarrier(false)
    b.barrier.leaked.mockImplementation(() => [{ url: 'wss://chat.example/socket', bytes: 42 }])
    const obs = await runAction(deps(b), action({ actionId: 'a1' }))
    expect(obs.status).toBe('failed')
    expect(obs.errors?.[0]).toMatchObject({ code: 'WRITE_UNHELD', message: expect.stringMatching(/42 bytes over the WebSocket wss:\/\/chat\.example\/socket.*task stops here/) })
    expect(b.barrier.stepEnded).toHaveBeenCalled()
  })

  it('blocks only WebSocket openings beside an engaged barrier, and every write while the step runs when it did not engage', async () => {
    for (const engages of [true, false]) {
      const b = fakeBarrier(false, engages)
      const scopes: string[] = []
      const block = {
        engage: vi.fn(async (_tab: number, _url: string | undefined, _allow: unknown, scope: string) => (scopes.push(scope), true)),
        release: vi.fn(async () => undefined),
        popups: vi.fn(() => []),
        blocked: vi.fn(() => ({ writes: [], dropped: [] })),
      }
      const acted: string[] = []
      const base = deps(b)
      const ask = base.content.ask
      const content = {
        ...base.content,
        ask: (async (...args: unknown[]) => {
          if ((args[1] as { kind: string }).kind === 'act') acted.push(`act with ${scopes.at(-1)}`)
          return (ask as never as (...a: unknown[]) => unknown)(...args)
        }) as never,
      }
      await runAction({ ...base, content, block: block as never }, action({ actionId: `a-${engages}` }))
      // The rules the step ran under are the last ones set before it reached the page.
      expect(acted).toEqual([engages ? 'act with sockets' : 'act with writes'])
      expect(block.release).toHaveBeenCalled()
    }
  })

  it('tells the page and the server how the step was watched: held by the barrier, blocked by the fallback, or neither', async () => {
    const cases = [
      { engages: true, block: true, watched: 'held' },
      { engages: false, block: true, watched: 'blocked' },
      { engages: false, block: false, watched: 'off' },
    ] as const
    for (const c of cases) {
      const b = fakeBarrier(false, c.engages)
      const block = { engage: vi.fn(async () => c.block), release: vi.fn(async () => undefined), popups: vi.fn(() => []), blocked: vi.fn(() => ({ writes: [], dropped: [] })) }
      const told: unknown[] = []
      const base = deps(b)
      const ask = base.content.ask
      const content = {
        ...base.content,
        ask: (async (...args: unknown[]) => {
          const req = args[1] as { kind: string; barrier?: string }
          if (req.kind === 'act') told.push(req.barrier)
          return (ask as never as (...a: unknown[]) => unknown)(...args)
        }) as never,
      }
      const obs = await runAction({ ...base, content, block: block as never }, action({ actionId: `w-${c.watched}` }))
      expect(told, c.watched).toEqual([c.watched])
      expect(obs.barrier, c.watched).toBe(c.watched)
    }
    // A step that runs no handler in the page (a look) says what the setting promises for the next.
    const looked = await runAction(deps(fakeBarrier(false)), action({ actionId: 'look', type: 'observe', params: {} }))
    expect(looked.barrier).toBe('held')
    const { barrier: _none, ...without } = deps(fakeBarrier(false))
    expect((await runAction(without, action({ actionId: 'look2', type: 'observe', params: {} }))).barrier).toBe('off')
  })

  it('hands the barrier the writes the person always allows, as the action carries them', async () => {
    const b = fakeBarrier(false)
    const allowWrites = [{ site: 'http://shop.example', method: 'POST', path: '/api/drafts/*/delete' }]
    b.barrier.allowed.mockReturnValue([request])
    const obs = await runAction(deps(b), action({ actionId: 'a1', allowWrites }))
    expect(b.barrier.engage).toHaveBeenCalledWith(expect.any(Number), expect.objectContaining({ stepId: 'a1', allow: allowWrites }))
    // What went unasked is reported, for the audit.
    expect(obs.allowed).toEqual([request])
  })

  it('leaves an approved step alone: the person already said yes to what it sends', async () => {
    const b = fakeBarrier(true)
    const obs = await runAction(deps(b), action({ confirmation: { approved: true, at: new Date().toISOString(), by: 'panel' } }))
    expect(b.barrier.engage).not.toHaveBeenCalled()
    expect(obs.held).toBeUndefined()
  })

  it('says nothing of writes for a step that sent none', async () => {
    const b = fakeBarrier(false)
    const obs = await runAction(deps(b), action({ actionId: 'a1' }))
    expect(obs.status).toBe('done')
    expect(obs.held).toBeUndefined()
  })

  it('releases exactly the held requests a release names, and says which went', async () => {
    const b = fakeBarrier(true)
    await runAction(deps(b), action({ actionId: 'a1' }))
    const approved = { approved: true as const, at: new Date().toISOString(), by: 'panel' }
    const obs = await runAction(deps(b), action({ actionId: 'a2', type: 'release', target: undefined, params: { holds: ['r1'] }, risk: 'high', requiresConfirmation: true, confirmation: approved }))
    expect(b.barrier.release).toHaveBeenCalledWith(['r1'])
    expect(obs.status).toBe('done')
    expect(obs.released).toEqual([{ id: 'r1', reason: 'write-method', request }])
  })

  it('refuses what a task holds when it moves on to anything but the release', async () => {
    const b = fakeBarrier(true)
    await runAction(deps(b), action({ actionId: 'a1' }))
    expect(b.holds()).toHaveLength(1)
    await runAction(deps(fakeBarrier(false)), action({ actionId: 'a2' }))
    await runAction({ ...deps(b) }, action({ actionId: 'a3', type: 'scroll', target: undefined, params: { direction: 'down' } }))
    expect(b.barrier.refuse).toHaveBeenCalled()
    expect(b.holds().filter((h) => h.stepId === 'a1')).toEqual([])
  })

  it('fails a release whose requests are no longer held, saying nothing was sent by Tandem', async () => {
    const b = fakeBarrier(false)
    const approved = { approved: true as const, at: new Date().toISOString(), by: 'panel' }
    const obs = await runAction(deps(b), action({ type: 'release', target: undefined, params: { holds: ['gone'] }, risk: 'high', requiresConfirmation: true, confirmation: approved }))
    expect(obs.status).toBe('failed')
    expect(obs.errors?.[0]?.message).toContain('did not send it')
  })
})
