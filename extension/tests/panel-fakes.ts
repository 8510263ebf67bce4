import { vi } from 'vitest'
import type { AllowedWrite, AskAlwaysEntry, AskAlwaysRule, HeldRequest, PendingConfirmation, SaveRecordingBody, SaveSkillBody, SkillSearchResult, StatusView, TaskStatus, TaskView, WriteAllowRule } from '#protocol'
import { sameRule } from '#protocol'
import { EMPTY_DRAFT, type Draft } from '../lib/panel/persisted'
import { createPanelStore, type PanelDeps } from '../lib/panel/store'
import { ServerError } from '../lib/server/errors'
import type { Settings } from '../lib/settings'
import { action } from './fakes'

export function task(id: string, status: TaskStatus, extra: Partial<TaskView> = {}): TaskView {
  return { id, goal: `goal of ${id}`, status, mode: 'llm', createdAt: '2025-01-01T00:00:00Z', updatedAt: '', stepCount: 0, ...extra }
}

export function view(status: TaskStatus, extra: Partial<StatusView> = {}, id = 'task1'): StatusView {
  return {
    task: task(id, status, status === 'WAITING_USER' ? { question: 'Which size?' } : {}),
    currentAction: null,
    pendingConfirmation: null,
    steps: [],
    usage: { llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 },
    ...extra,
  }
}

export const pendingOrder = (): PendingConfirmation => ({
  actionId: 'act9',
  action: action({ actionId: 'act9', type: 'click', risk: 'high', requiresConfirmation: true, target: { by: 'index', value: 7 } }),
  risk: 'high',
  reasons: ['places an order'],
  goal: 'Place the order',
  evidence: { url: 'http://shop.test/checkout', title: 'Checkout', origin: 'http://shop.test', targetText: 'Place order', screenshot: { name: 'a1-before.png', label: 'before' } },
})

const drafts7: HeldRequest = {
  method: 'POST',
  url: 'http://shop.test/api/drafts/7/delete',
  origin: 'http://shop.test',
  path: '/api/drafts/7/delete',
  kind: 'fetch',
  fields: [{ name: 'id', value: '7' }],
}

/** The question about a write the barrier held: a release of what the page tried to send. */
export const pendingRelease = (): PendingConfirmation => ({
  actionId: 'rel1',
  action: action({ actionId: 'rel1', type: 'release', risk: 'high', requiresConfirmation: true, params: { holds: ['r1'], requests: [drafts7] } }),
  risk: 'high',
  reasons: ['The page tries to send POST http://shop.test/api/drafts/7/delete'],
  evidence: { url: 'http://shop.test/drafts', origin: 'http://shop.test', targetText: 'Tidy up', requests: [drafts7] },
})

/** A panel over an in-memory server, storage and browser; everything it did is recorded. */
export function setupPanel(
  opts: {
    views?: Record<string, StatusView>
    followed?: string | null
    settings?: Settings
    activity?: unknown
    lang?: 'en' | 'zh-CN'
    draft?: Draft
    skills?: string[]
    allowed?: AllowedWrite[]
    asked?: AskAlwaysEntry[]
    /** What the worker keeps for the toolbar badge (worker/attention). */
    attention?: unknown
  } = {},
) {
  const views: Record<string, StatusView> = opts.views ?? { task1: view('RUNNING') }
  const stored = { followed: opts.followed === undefined ? 'task1' : opts.followed, draft: opts.draft ?? EMPTY_DRAFT, settings: opts.settings ?? { serverUrl: 'http://127.0.0.1:3000', token: 't' } }
  const log: string[] = []
  /** The names of the person's skills the fake server holds (a slug each): saving one of them again is a CONFLICT. */
  const savedNames = new Map((opts.skills ?? []).map((name, i) => [name, i ? `skill-${i + 1}` : 'buy-a-phone']))
  /** The writes the fake server always allows. */
  let allowed: AllowedWrite[] = opts.allowed ?? []
  /** The harmless kinds the fake server always asks about. */
  let asked: AskAlwaysEntry[] = opts.asked ?? []
  const client = {
    health: vi.fn(async () => undefined),
    info: vi.fn(async () => ({ name: 'tandem', version: '0.1.0', llm: { configured: false } })),
    start: vi.fn(async (_body: unknown) => {
      log.push('start')
      views.task2 = view('RUNNING', {}, 'task2')
      return { taskId: 'task2', status: 'RUNNING' as const }
    }),
    confirm: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    answer: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    plan: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    pause: vi.fn(async (_body: unknown) => ({ status: 'PAUSED' as const })),
    resume: vi.fn(async (_body: unknown) => ({ status: 'RUNNING' as const })),
    cancel: vi.fn(async (_body: unknown) => ({ status: 'CANCELED' as const })),
    status: vi.fn(async (id: string) => {
      if (!views[id]) throw new ServerError('NOT_FOUND', `No task ${id}.`, 404)
      return views[id]
    }),
    tasks: vi.fn(async () => Object.values(views).map((v) => v.task)),
    searchSkills: vi.fn(async (q: string): Promise<SkillSearchResult[]> => [
      { slug: 'checkout-with-approval', name: `Checkout (${q})`, description: 'd', sites: [], tags: [], risk: 'high' as const, scripted: true, score: 1 },
    ]),
    saveSkill: vi.fn(async (body: SaveSkillBody) => {
      // As the server names a task saved without a name: its goal, with what was typed made a parameter.
      const name = body.name ?? 'Buy a {{q}}'
      const taken = savedNames.get(name)
      if (taken && !body.overwrite && !body.keepBoth) throw new ServerError('CONFLICT', 'A skill of yours has this name already.', 409, { slug: taken, name })
      const slug = body.slug ?? (taken && body.overwrite ? taken : `buy-a-phone${savedNames.size ? `-${savedNames.size + 1}` : ''}`)
      savedNames.set(name, slug)
      const skill = { slug, name, description: 'd', sites: [], tags: ['recorded'], risk: 'high' as const, 'allowed-actions': [], 'risky-steps': [], excerpt: '', scripted: true, parameters: [{ name: 'q', label: 'Search' }] }
      return { skill, file: `skills/${slug}/SKILL.md` }
    }),
    saveRecording: vi.fn(async (body: SaveRecordingBody) => {
      const slug = body.slug ?? 'recorded-demo'
      return { skill: { slug, name: body.name, description: 'd', sites: [], tags: ['recorded'], risk: 'medium' as const, 'allowed-actions': [], 'risky-steps': [], excerpt: '', scripted: true }, file: `skills/${slug}/SKILL.md` }
    }),
    artifact: vi.fn(async (taskId: string, name: string) => new Blob([`${taskId}/${name}`])),
    exportAudit: vi.fn(async () => new Blob(['PK zip'])),
    allowedWrites: vi.fn(async () => allowed),
    forgetWrite: vi.fn(async (rule: WriteAllowRule) => (allowed = allowed.filter((a) => !sameRule(a, rule)))),
    askAlways: vi.fn(async () => asked),
    addAskAlways: vi.fn(async (rule: AskAlwaysRule) => (asked = [{ ...rule, at: '2026-01-01T00:00:00.000Z', by: 'ext_1' }, ...asked.filter((a) => a.site !== rule.site || a.kind !== rule.kind)])),
    forgetAskAlways: vi.fn(async (rule: AskAlwaysRule) => (asked = asked.filter((a) => a.site !== rule.site || a.kind !== rule.kind))),
  }
  let made = 0
  const files = {
    objectUrl: vi.fn((_blob: Blob) => `blob:${++made}`),
    revoke: vi.fn((_url: string) => undefined),
    download: vi.fn((_blob: Blob, _name: string) => undefined),
  }
  const tabs = {
    current: vi.fn(async () => ({ id: 42, url: 'http://shop.test/', title: 'Shop' }) as { id: number; url: string; title: string } | null),
    expect: vi.fn(async (_tabId: number) => void log.push('expect')),
    adopt: vi.fn(async (_taskId: string, _tabId: number) => {
      log.push('adopt')
      return true
    }),
  }
  let activityListener: (value: unknown) => void = () => undefined
  let attentionListener: (value: unknown) => void = () => undefined
  const deps: PanelDeps = {
    client,
    settings: { get: async () => stored.settings, set: vi.fn(async (value: Settings) => void (stored.settings = value)) },
    activity: {
      get: async () => opts.activity ?? null,
      watch: (cb) => {
        activityListener = cb
        return () => undefined
      },
    },
    wake: vi.fn(async () => void log.push('wake')),
    changed: vi.fn(async (taskId: string) => void log.push(`changed ${taskId}`)),
    followed: { get: async () => stored.followed, set: async (id) => void (stored.followed = id) },
    draft: { get: async () => stored.draft, set: async (d) => void (stored.draft = d) },
    tabs,
    hasPermission: vi.fn(async (_pattern: string) => false),
    files,
    lang: opts.lang ?? 'en',
    attention: {
      get: async () => opts.attention ?? null,
      watch: (cb) => {
        attentionListener = cb
        return () => undefined
      },
    },
  }
  /** What the worker writes to its activity item, as the panel's watch delivers it. */
  const pushActivity = (value: unknown) => activityListener(value)
  /** What the worker writes to its attention item (the badge's list of waiting tasks). */
  const pushAttention = (value: unknown) => attentionListener(value)
  /** The server adds rules (another panel, a confirm with always). */
  const allow = (rules: AllowedWrite[]) => void (allowed = [...rules, ...allowed])
  return { store: createPanelStore(deps), client, deps, views, stored, files, tabs, log, pushActivity, pushAttention, allow }
}

