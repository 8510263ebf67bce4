import { describe, expect, it, vi } from 'vitest'
import { reopenUnderBarrier } from '../lib/executor/popups'

function setup(engages = true) {
  const calls: string[] = []
  const tabs = {
    get: vi.fn(async (tabId: number) => ({ id: tabId, status: 'complete', url: 'https://shop.test/connect' }) as never),
    update: vi.fn(async (tabId: number, props: { url?: string }) => {
      calls.push(`update ${tabId} ${props.url}`)
      return {} as never
    }),
  }
  const barrier = {
    engage: vi.fn(async (tabId: number) => (calls.push(`engage ${tabId}`), engages)),
    waitForHold: vi.fn(async () => false),
    stepEnded: vi.fn(async (tabId: number) => void calls.push(`ended ${tabId}`)),
  }
  return { deps: { tabs, barrier } as never as Parameters<typeof reopenUnderBarrier>[0] & { tabs: typeof tabs; barrier: typeof barrier }, calls }
}
const step = { taskId: 't1', stepId: 'a1', pageUrl: 'https://shop.test/settings' }

describe('windows a step opened, opened again under the barrier', () => {
  it('takes the window under the barrier before it loads again, then lets the step end there', async () => {
    const { deps, calls } = setup()
    const blocked = await reopenUnderBarrier(deps, [{ tabId: 9, url: 'https://shop.test/connect', method: 'GET' }], step, 10)
    expect(blocked).toEqual([])
    expect(calls).toEqual(['engage 9', 'update 9 https://shop.test/connect', 'ended 9'])
    expect(deps.barrier.engage).toHaveBeenCalledWith(9, expect.objectContaining({ stepId: 'a1', adopted: true }))
  })

  it('asks about a window whose first request was a post, or that the barrier cannot watch, and never opens it', async () => {
    const posted = setup()
    const blocked = await reopenUnderBarrier(posted.deps, [{ tabId: 9, url: 'https://shop.test/pay', method: 'POST' }], step, 10)
    expect(blocked).toMatchObject([{ request: { method: 'POST', path: '/pay', kind: 'navigation' } }])
    expect(posted.calls).toEqual([])
    const unwatched = setup(false)
    expect(await reopenUnderBarrier(unwatched.deps, [{ tabId: 9, url: 'https://shop.test/connect', method: 'GET' }], step, 10)).toHaveLength(1)
    expect(unwatched.calls).toEqual(['engage 9'])
  })
})
