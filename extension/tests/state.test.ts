import { beforeEach, describe, expect, it } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { activityItem, readState, updateActivity, updateState } from '../lib/executor/state'

describe('executor state: writers that run at once', () => {
  beforeEach(() => fakeBrowser.reset())

  it('keeps both changes when the executor takes its lock while the panel adopts a tab', async () => {
    const inflight = { taskId: 't1', actionId: 'a1', type: 'click' as const, tabId: 5, startedAt: 1, graceMs: 1, phase: 'started' as const }
    await Promise.all([
      updateState((s) => ({ ...s, inflight })),
      updateState((s) => ({ ...s, tasks: { ...s.tasks, t1: { tabId: 5, closed: false, at: 1 } } })),
    ])
    const state = await readState()
    expect(state.inflight?.actionId).toBe('a1')
    expect(state.tasks.t1?.tabId).toBe(5)
  })

  it('keeps the takeover note when the executor writes the status at the same moment', async () => {
    await Promise.all([
      updateActivity({ task: { taskId: 't1', status: 'PAUSED' }, takeover: { taskId: 't1', input: 'key', reason: 'typed', at: 1 } }),
      updateActivity({ connection: 'ok', message: 'Connected.' }),
    ])
    const activity = await activityItem.getValue()
    expect(activity.takeover?.taskId).toBe('t1')
    expect(activity.connection).toBe('ok')
  })
})
