import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing/fake-browser'
import { expectTaskTab, stateForTask } from '../lib/executor/coming-tab'
import { COMING_MS, type ExecutorState, readState, updateState } from '../lib/executor/state'
import { adoptTaskTab } from '../lib/worker/adopt-tab'
import { onWorkerMessage } from '../lib/worker/on-message'

const ORIGIN = 'chrome-extension://abc/'
const deps = () => ({
  executor: { wake: vi.fn(async () => undefined) },
  expectTab: vi.fn(async () => undefined),
  adoptTab: vi.fn(async () => true),
  taskChanged: vi.fn(async () => ({ status: 'CANCELED' as const, stopped: true })),
})

describe('worker messages', () => {
  beforeEach(() => fakeBrowser.reset())

  it('wakes the executor for the panel, also when the panel is open as a tab', () => {
    const d = deps()
    const reply = vi.fn()
    const listener = onWorkerMessage(d, ORIGIN)
    listener({ kind: 'wake', force: true }, { url: `${ORIGIN}sidepanel.html` }, reply)
    listener({ kind: 'wake', force: true }, { url: `${ORIGIN}sidepanel.html`, tab: { id: 3 } as never }, reply)
    expect(d.executor.wake).toHaveBeenCalledTimes(2)
    expect(d.executor.wake).toHaveBeenCalledWith(true)
    expect(reply).toHaveBeenCalledWith({ ok: true })
  })

  it('ignores web pages, content scripts and malformed messages', () => {
    const d = deps()
    const listener = onWorkerMessage(d, ORIGIN)
    expect(listener({ kind: 'wake', force: true }, { url: 'http://evil.example/', tab: { id: 1 } as never }, vi.fn())).toBe(false)
    expect(listener({ kind: 'use-tab', taskId: 't1', tabId: 1 }, { url: 'http://evil.example/', tab: { id: 1 } as never }, vi.fn())).toBe(false)
    expect(listener({ kind: 'explode' }, { url: `${ORIGIN}sidepanel.html` }, vi.fn())).toBe(false)
    expect(listener({ kind: 'use-tab', taskId: 't1', tabId: 'one' }, { url: `${ORIGIN}sidepanel.html` }, vi.fn())).toBe(false)
    expect(listener({ kind: 'task-changed', taskId: 't1' }, { url: 'http://evil.example/', tab: { id: 1 } as never }, vi.fn())).toBe(false)
    expect(listener({ kind: 'task-changed', taskId: '' }, { url: `${ORIGIN}sidepanel.html` }, vi.fn())).toBe(false)
    expect(d.executor.wake).not.toHaveBeenCalled()
    expect(d.adoptTab).not.toHaveBeenCalled()
    expect(d.taskChanged).not.toHaveBeenCalled()
  })

  it('has the worker follow a task the panel changed, and answers with its status and whether a step was stopped', async () => {
    const d = deps()
    const listener = onWorkerMessage(d, ORIGIN)
    const replied = new Promise((resolve) => expect(listener({ kind: 'task-changed', taskId: 't1' }, { url: `${ORIGIN}sidepanel.html` }, resolve)).toBe(true))
    expect(await replied).toEqual({ status: 'CANCELED', stopped: true })
    expect(d.taskChanged).toHaveBeenCalledWith('t1')
    d.taskChanged.mockRejectedValueOnce(new Error('gone'))
    const failed = new Promise((resolve) => listener({ kind: 'task-changed', taskId: 't2' }, { url: `${ORIGIN}sidepanel.html` }, resolve))
    expect(await failed).toEqual({ status: null, stopped: false })
  })

  it('hands the panel’s current tab to the task and answers once it is stored', async () => {
    const d = deps()
    const listener = onWorkerMessage(d, ORIGIN)
    const replied = new Promise((resolve) => expect(listener({ kind: 'use-tab', taskId: 't1', tabId: 7 }, { url: `${ORIGIN}sidepanel.html` }, resolve)).toBe(true))
    expect(await replied).toEqual({ adopted: true })
    expect(d.adoptTab).toHaveBeenCalledWith('t1', 7)
  })

  it('tells the worker a task is about to start in the panel’s current tab, and answers once it is stored', async () => {
    const d = deps()
    const listener = onWorkerMessage(d, ORIGIN)
    const replied = new Promise((resolve) => expect(listener({ kind: 'tab-coming', tabId: 7 }, { url: `${ORIGIN}sidepanel.html` }, resolve)).toBe(true))
    expect(await replied).toEqual({ ok: true })
    expect(d.expectTab).toHaveBeenCalledWith(7)
    expect(listener({ kind: 'tab-coming', tabId: 7 }, { url: 'http://evil.example/', tab: { id: 1 } as never }, vi.fn())).toBe(false)
  })
})

describe('adopting a tab for a task', () => {
  beforeEach(() => fakeBrowser.reset())

  it('makes a web page tab the task’s tab, and never moves a task that already has one', async () => {
    const page = await fakeBrowser.tabs.create({ url: 'http://shop.test/' })
    const other = await fakeBrowser.tabs.create({ url: 'http://other.test/' })
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', page.id!, () => 5)).toBe(true)
    expect((await readState()).tasks.t1).toEqual({ tabId: page.id, closed: false, at: 5 })
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', other.id!)).toBe(false)
    expect((await readState()).tasks.t1.tabId).toBe(page.id)
  })

  it('refuses a tab that is gone or shows no web page', async () => {
    const panel = await fakeBrowser.tabs.create({ url: 'chrome-extension://abc/sidepanel.html' })
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', panel.id!)).toBe(false)
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', 999)).toBe(false)
    await updateState((s) => s)
    expect((await readState()).tasks.t1).toBeUndefined()
  })
})

describe('a tab promised to a task the panel is starting', () => {
  beforeEach(() => fakeBrowser.reset())

  it('holds the new task’s first step until the panel names the task, then gives it that tab', async () => {
    const page = await fakeBrowser.tabs.create({ url: 'http://shop.test/' })
    await expectTaskTab(page.id!)
    let settled: ExecutorState | null = null
    const waiting = stateForTask('t1').then((s) => (settled = s))
    await new Promise((r) => setTimeout(r, 150))
    expect(settled).toBeNull()
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', page.id!)).toBe(true)
    await waiting
    expect(settled!.tasks.t1?.tabId).toBe(page.id)
    expect(settled!.coming).toBeUndefined()
  })

  it('lets a step go on when the promise was broken or has lapsed, and never holds a task that has its tab', async () => {
    const panel = await fakeBrowser.tabs.create({ url: 'chrome-extension://abc/sidepanel.html' })
    await expectTaskTab(panel.id!)
    const waiting = stateForTask('t1')
    expect(await adoptTaskTab(fakeBrowser.tabs, 't1', panel.id!)).toBe(false)
    expect((await waiting).tasks.t1).toBeUndefined()

    let clock = 1_000
    await expectTaskTab(3, () => clock)
    const lapsing = stateForTask('t2', () => clock, async () => void (clock += 1_000))
    expect((await lapsing).coming?.tabId).toBe(3)
    expect(clock).toBe(1_000 + COMING_MS)

    await updateState((s) => ({ ...s, tasks: { t3: { tabId: 4, closed: false, at: 0 } }, coming: { tabId: 9, at: Date.now() } }))
    expect((await stateForTask('t3')).tasks.t3?.tabId).toBe(4)
  })
})
