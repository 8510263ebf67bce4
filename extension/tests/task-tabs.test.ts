import { beforeEach, describe, expect, it } from 'vitest'
import type { Action } from '#protocol'
import { runAction, type RunDeps } from '../lib/executor/run-action'
import { EMPTY_STATE, type ExecutorState, type TaskTab } from '../lib/executor/state'
import { watchOpenedTabs } from '../lib/executor/opened-tabs'
import { firstTab, movedTo, numberOf, ownedTabs, tabIdOf, withOpened, withoutTab } from '../lib/executor/task-tabs'
import { action } from './fakes'
import { createTabWorld, runDepsFor, type TabWorld } from './tab-world'

describe('task tabs: ownership and numbering', () => {
  it('numbers a task’s tabs in the order they opened, never reusing a number', () => {
    let task = firstTab(10, 0)
    task = withOpened(task, [{ tabId: 11, opener: 10 }, { tabId: 12, opener: 11 }])
    expect(ownedTabs(task).map((t) => [t.tabId, t.tab])).toEqual([[10, 1], [11, 2], [12, 3]])
    // Opened again (a second event for the same tab) keeps its number.
    task = withOpened(task, [{ tabId: 11, opener: 10 }])
    expect(numberOf(task, 11)).toBe(2)
    task = withoutTab(task, 12)
    task = withOpened(task, [{ tabId: 13, opener: 10 }])
    expect(numberOf(task, 13)).toBe(4)
    expect(tabIdOf(task, 3)).toBeUndefined()
  })

  it('reads a task stored before tabs were tracked as owning its one tab, numbered 1', () => {
    const old: TaskTab = { tabId: 7, closed: false, at: 0 }
    expect(ownedTabs(old)).toEqual([{ tabId: 7, tab: 1 }])
    expect(numberOf(withOpened(old, [{ tabId: 8, opener: 7 }]), 8)).toBe(2)
  })

  it('moves only to its own tabs; closing the current tab goes back to the tab that opened it', () => {
    let task = withOpened(firstTab(10, 0), [{ tabId: 11, opener: 10 }, { tabId: 12, opener: 10 }])
    expect(movedTo(task, 99).tabId).toBe(10)
    task = movedTo(task, 11)
    expect(task.tabId).toBe(11)
    task = withoutTab(task, 11)
    expect(task.tabId).toBe(10)
    expect(task.closed).toBe(false)
    task = withoutTab(withoutTab(task, 12), 10)
    expect(task.closed).toBe(true)
  })

  it('hears only tabs opened by the task’s own tabs, and those they open in turn', () => {
    const listeners = new Set<(d: { sourceTabId: number; tabId: number }) => void>()
    const api = { addListener: (cb: never) => listeners.add(cb), removeListener: (cb: never) => listeners.delete(cb) }
    const watch = watchOpenedTabs({ onCreatedNavigationTarget: api }, [10])
    const fire = (sourceTabId: number, tabId: number) => listeners.forEach((cb) => cb({ sourceTabId, tabId }))
    fire(10, 11)
    fire(50, 51)
    fire(11, 12)
    watch.stop()
    fire(10, 13)
    expect(watch.opened()).toEqual([{ tabId: 11, opener: 10 }, { tabId: 12, opener: 11 }])
  })
})

describe('run-action: a task follows the tabs its steps open', () => {
  let world: TabWorld
  let state: ExecutorState
  const opens: ((d: { sourceTabId: number; tabId: number }) => void)[] = []
  const grouped: string[] = []

  beforeEach(() => {
    world = createTabWorld({ granted: ['http://shop.example'] })
    state = structuredClone(EMPTY_STATE)
    opens.length = 0
    grouped.length = 0
  })

  function deps(): RunDeps {
    return runDepsFor(world, state, {
      rememberTab: async (taskId, tabId) => {
        state.tasks[taskId] = firstTab(tabId, 0)
      },
      taskTabs: {
        read: async (taskId) => state.tasks[taskId],
        change: async (taskId, change) => {
          if (state.tasks[taskId]) state.tasks[taskId] = change(state.tasks[taskId])
          return state.tasks[taskId]
        },
      },
      watchOpened: (from) =>
        watchOpenedTabs({ onCreatedNavigationTarget: { addListener: (cb) => void opens.push(cb), removeListener: (cb) => void opens.splice(opens.indexOf(cb), 1) } }, from),
      groupTabs: async (taskId) => void grouped.push(taskId),
    })
  }
  const run = (a: Partial<Action>) => runAction(deps(), action(a))

  /** A click whose page opens `url` in a new tab, as target=_blank does. */
  function clickOpens(url: string) {
    world.onAct(async (a, tab) => {
      const opened = world.open(url)
      opened.status = 'loading'
      setTimeout(() => (opened.status = 'complete'), 5)
      for (const cb of [...opens]) cb({ sourceTabId: tab.id, tabId: opened.id })
      return { actionId: a.actionId, status: 'done', errors: [], page: { url: tab.url, title: tab.title, elementTree: '', visibleTextSnippet: '' }, timing: {} }
    })
  }

  it('reads the page of the tab a click opened, lists both tabs numbered, and groups them', async () => {
    const search = world.open('http://shop.example/search')
    state.tasks.task1 = firstTab(search.id, 0)
    clickOpens('http://shop.example/item/7')
    const obs = await run({ type: 'click', target: { by: 'index', value: 0 } })
    expect(obs.status).toBe('done')
    expect(obs.url).toBe('http://shop.example/item/7')
    expect(obs.tabs).toEqual([
      { tab: 1, url: 'http://shop.example/search', title: 'search', active: false },
      { tab: 2, url: 'http://shop.example/item/7', title: 'item 7', active: true, opened: true },
    ])
    expect(state.tasks.task1!.tabId).not.toBe(search.id)
    expect(grouped).toEqual(['task1'])

    // Back to the results, then closing the item's tab by its number leaves the task where it is.
    const back = await run({ type: 'switch_tab', params: { tab: 1 } })
    expect(back.url).toBe('http://shop.example/search')
    expect(back.tabs?.map((t) => [t.tab, t.active])).toEqual([[1, true], [2, false]])
    expect(world.all().find((t) => t.id === search.id)!.active).toBe(true)
    const closed = await run({ type: 'close_tab', params: { tab: 2 } })
    expect(closed.status).toBe('done')
    expect(closed.tabs).toEqual([{ tab: 1, url: 'http://shop.example/search', title: 'search', active: true }])
    expect(world.all().map((t) => t.url)).toEqual(['http://shop.example/search'])
  })

  it('close_tab without a number closes the current tab and moves to the one that opened it; the last tab stays', async () => {
    const search = world.open('http://shop.example/search')
    state.tasks.task1 = firstTab(search.id, 0)
    clickOpens('http://shop.example/item/7')
    await run({ type: 'click', target: { by: 'index', value: 0 } })
    const closed = await run({ type: 'close_tab', params: {} })
    expect(closed.url).toBe('http://shop.example/search')
    expect(state.tasks.task1!.tabId).toBe(search.id)
    const only = await run({ type: 'close_tab', params: {} })
    expect(only.status).toBe('failed')
    expect(only.errors?.[0]?.code).toBe('ACTION_FAILED')
    expect(world.all()).toHaveLength(1)
  })

  it('refuses a tab number the task does not own, and forgets a tab the person closed', async () => {
    const search = world.open('http://shop.example/search')
    state.tasks.task1 = firstTab(search.id, 0)
    const stranger = world.open('http://shop.example/other', false)
    const refused = await run({ type: 'switch_tab', params: { tab: 2 } })
    expect(refused.errors?.[0]).toMatchObject({ code: 'INVALID_TASK_TAB', message: 'The task has no tab 2; its tabs are 1.' })
    expect(world.all().find((t) => t.id === stranger.id)!.active).toBe(false)

    clickOpens('http://shop.example/item/7')
    await run({ type: 'click', target: { by: 'index', value: 0 } })
    await run({ type: 'switch_tab', params: { tab: 1 } })
    world.close(state.tasks.task1!.tabs![1]!.tabId)
    const observed = await run({ type: 'observe' })
    expect(observed.tabs).toBeUndefined()
    expect(ownedTabs(state.tasks.task1!).map((t) => t.tab)).toEqual([1])
  })

  it('does not follow a new tab when the step failed', async () => {
    const search = world.open('http://shop.example/search')
    state.tasks.task1 = firstTab(search.id, 0)
    world.onAct(async (a, tab) => {
      const opened = world.open('http://shop.example/item/7')
      for (const cb of [...opens]) cb({ sourceTabId: tab.id, tabId: opened.id })
      return { actionId: a.actionId, status: 'failed' as const, errors: [{ code: 'ACTION_FAILED' as const, message: 'no' }], page: { url: tab.url, title: tab.title, elementTree: '', visibleTextSnippet: '' }, timing: {} }
    })
    const obs = await run({ type: 'click', target: { by: 'index', value: 0 } })
    expect(obs.url).toBe('http://shop.example/search')
    expect(obs.tabs?.map((t) => [t.tab, t.active, t.opened])).toEqual([[1, true, undefined], [2, false, undefined]])
  })
})
