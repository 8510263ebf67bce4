import { vi } from 'vitest'
import type { Action, RedactSettings } from '#protocol'
import type { ActOutcome, ContentRequest, PageState } from '../lib/messages'
import { ContentError } from '../lib/executor/content-channel'
import type { Tab } from '../lib/executor/task-tab'
import type { RunDeps } from '../lib/executor/run-action'
import { resultKey, type ExecutorState } from '../lib/executor/state'

interface FakeTab {
  id: number
  windowId: number
  url: string
  title: string
  status: 'loading' | 'complete'
  active: boolean
  history: string[]
  /** Whether this document runs the content script: a new one does once `ensure` started it. */
  scripted?: boolean
  /** How many times a card's element was measured in it. */
  measured?: number
}

const pageOf = (tab: FakeTab): PageState => ({
  url: tab.url,
  title: tab.title,
  elementTree: `[0]<a href="/">${tab.title}</a>`,
  visibleTextSnippet: tab.title,
})

/**
 * Tabs, permissions and a content script as the run-action code sees them: tabs load asynchronously, only
 * granted sites pass `permissions.contains`, and each test decides what an in-page action does.
 */
export function createTabWorld(options: { granted: string[]; loadMs?: number }) {
  const tabs = new Map<number, FakeTab>()
  let nextId = 10
  const loadMs = options.loadMs ?? 5
  const titleOf = (url: string) => new URL(url).pathname.replace(/\W+/g, ' ').trim() || 'Home'

  function load(tab: FakeTab, url: string) {
    tab.status = 'loading'
    tab.scripted = false
    tab.url = url
    setTimeout(() => {
      tab.status = 'complete'
      tab.title = titleOf(url)
    }, loadMs)
  }

  const view = (tab: FakeTab) => ({ ...tab }) as unknown as Tab & { id: number }

  const api = {
    get: vi.fn(async (id: number) => {
      const tab = tabs.get(id)
      if (!tab) throw new Error(`No tab with id: ${id}.`)
      return view(tab)
    }),
    query: vi.fn(async (info: { active?: boolean }) => [...tabs.values()].filter((t) => !info.active || t.active).map(view)),
    create: vi.fn(async (props: { url?: string; active?: boolean }) => {
      const tab: FakeTab = { id: nextId++, windowId: 1, url: 'about:blank', title: '', status: 'complete', active: !!props.active, history: [] }
      if (props.active) for (const t of tabs.values()) t.active = false
      tabs.set(tab.id, tab)
      if (props.url) load(tab, props.url)
      return view(tab)
    }),
    update: vi.fn(async (id: number, props: { url?: string; active?: boolean }) => {
      const tab = tabs.get(id)!
      if (props.active) for (const t of tabs.values()) t.active = t.id === id
      if (props.url) {
        tab.history.push(tab.url)
        load(tab, props.url)
      }
      return view(tab)
    }),
    goBack: vi.fn(async (id: number) => {
      const tab = tabs.get(id)!
      const previous = tab.history.pop()
      if (!previous) throw new Error('Cannot go back.')
      load(tab, previous)
    }),
    remove: vi.fn(async (id: number) => {
      tabs.delete(id)
    }),
    captureVisibleTab: vi.fn(async () => 'data:image/jpeg;base64,AAAA'),
    sendMessage: vi.fn(async () => undefined),
  }

  const permissions = {
    contains: vi.fn(async ({ origins }: { origins?: string[] }) =>
      (origins ?? []).every((pattern) => options.granted.some((origin) => pattern === `${origin}/*`)),
    ),
    getAll: vi.fn(async () => ({ origins: options.granted.map((origin) => `${origin}/*`), permissions: [] })),
  }

  /** What an in-page action does in this test; by default it succeeds and leaves the page as it was. */
  let onAct: (action: Action, tab: FakeTab) => Promise<ActOutcome | 'navigate-away' | 'hang'> = async (action, tab) => ({
    actionId: action.actionId,
    status: 'done',
    errors: [],
    page: pageOf(tab),
    timing: { actMs: 1 },
  })

  const content = {
    ensure: vi.fn(async (tabId: number) => {
      const tab = tabs.get(tabId)
      if (tab) tab.scripted = true
    }),
    ask: vi.fn(async (tabId: number, request: ContentRequest, timeoutMs: number): Promise<any> => {
      const tab = tabs.get(tabId)
      if (!tab) throw new ContentError('gone', 'No tab.')
      switch (request.kind) {
        case 'ping':
          if (!tab.scripted) throw new ContentError('gone', 'The page did not answer (Receiving end does not exist)')
          return { ready: true }
        case 'observe':
          return pageOf(tab)
        case 'mask':
          return { masked: true }
        case 'unmask':
          return { restored: true }
        case 'locate': {
          // The page's one button, a quarter across and halfway down, a little lower each time it is measured (as
          // when Chrome's debugging bar shortens the view); nothing else is found.
          const measured = (tab.measured = (tab.measured ?? 0) + 1)
          if (request.target.by !== 'selector' || request.target.value !== '#send') return {}
          return { name: 'Send message', mark: { x: 0.25, y: 0.5 + 0.01 * (measured - 1), w: 0.2, h: 0.05 } }
        }
        case 'act': {
          const outcome = await onAct(request.action, tab)
          if (outcome === 'hang') throw new ContentError('timeout', `The page's act took longer than ${timeoutMs} ms`)
          if (outcome === 'navigate-away') {
            tab.history.push(tab.url)
            load(tab, new URL('/next', tab.url).href)
            throw new ContentError('gone', 'The page did not answer (message port closed)')
          }
          return outcome
        }
      }
    }),
  }

  const shots: string[] = []
  const screenshots = {
    capture: vi.fn(async (tab: Tab, label: 'before' | 'after' | 'observation' | 'screenshot', _redact?: RedactSettings) => {
      shots.push(`${label}@${tab.url}`)
      return { artifact: { label, contentType: 'image/jpeg' as const, data: 'AAAA' } }
    }),
  }

  return {
    tabs: api,
    permissions,
    content,
    screenshots,
    shots,
    all: () => [...tabs.values()],
    open(url: string, active = true) {
      const tab: FakeTab = { id: nextId++, windowId: 1, url, title: titleOf(url), status: 'complete', active, history: [] }
      if (active) for (const t of tabs.values()) t.active = false
      tabs.set(tab.id, tab)
      return tab
    },
    close(id: number) {
      tabs.delete(id)
    },
    onAct(handler: typeof onAct) {
      onAct = handler
    },
  }
}
export type TabWorld = ReturnType<typeof createTabWorld>

/** What runAction needs, wired to `world` and `state` (the task's tab is remembered in `state`); `extra` overrides. */
export function runDepsFor(world: TabWorld, state: ExecutorState, extra: Partial<RunDeps> = {}): RunDeps {
  return {
    tabs: world.tabs as unknown as RunDeps['tabs'],
    permissions: world.permissions as unknown as RunDeps['permissions'],
    content: world.content as unknown as RunDeps['content'],
    screenshots: world.screenshots,
    serverUrl: 'http://127.0.0.1:3000',
    state,
    touching: async () => undefined,
    resultKey,
    readResult: async () => null,
    rememberTab: async (taskId, tabId) => {
      state.tasks[taskId] = { tabId, closed: false, at: Date.now() }
    },
    loadTimeoutMs: 2000,
    ...extra,
  }
}
