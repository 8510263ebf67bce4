import { vi } from 'vitest'
import type { Action, HarmlessWrite, HeldRequest, NextData, ReportBodyInput } from '#protocol'
import { ServerError } from '../lib/server/errors'
import type { Hold } from '../lib/executor/write-barrier'

export function action(overrides: Partial<Action> = {}): Action {
  return {
    taskId: 'task1',
    actionId: 'act1',
    seq: 1,
    type: 'click',
    target: { by: 'index', value: 3 },
    params: {},
    risk: 'low',
    requiresConfirmation: false,
    ...overrides,
  }
}

/**
 * A server that behaves like the engine where the executor cares: it offers the oldest unreported action
 * again and again until a report for it arrives, and acknowledges a repeated report as a duplicate.
 */
export function fakeServer(actions: Action[]) {
  const queue = [...actions]
  const reported = new Set<string>()
  const reports: ReportBodyInput[] = []
  let down = false
  let status: NextData['status'] = null
  let handsOver = false
  const server = {
    /** Like the engine, hands the next action over with a report that asks for it (`takeNext`). */
    handOver(value: boolean) {
      handsOver = value
    },
    reports,
    queue,
    setDown(value: boolean) {
      down = value
    },
    setStatus(value: NextData['status']) {
      status = value
    },
    next: vi.fn(async (_body: { taskId?: string; waitMs?: number }): Promise<NextData> => {
      if (down) throw new ServerError('UNREACHABLE', 'The Tandem server at http://127.0.0.1:3000 is not reachable. Is it running?')
      const head = queue[0]
      if (head) return { taskId: head.taskId, status: 'RUNNING', action: head }
      return { taskId: status === null ? null : 'task1', status, action: null }
    }),
    report: vi.fn(async (body: ReportBodyInput) => {
      if (down) throw new ServerError('UNREACHABLE', 'The Tandem server at http://127.0.0.1:3000 is not reachable. Is it running?')
      const duplicate = reported.has(body.actionId)
      if (!duplicate && queue[0]?.actionId !== body.actionId) throw new ServerError('CONFLICT', 'That action is not the one in flight for this task.')
      reports.push(body)
      reported.add(body.actionId)
      if (!duplicate) queue.shift()
      const next = handsOver && body.takeNext && !duplicate ? (queue[0] ?? null) : undefined
      return { accepted: true, duplicate, status: 'RUNNING' as const, ...(next === undefined ? {} : { action: next }) }
    }),
  }
  return server
}

/** The write barrier as runAction sees it, over holds the test adds as the page's writes would be held. */
export function fakeWriteBarrier() {
  let holds: Hold[] = []
  const barrier = {
    engage: vi.fn(async (): Promise<boolean> => true),
    waitForHold: vi.fn(async (_tab: number, step: string) => holds.some((h) => h.stepId === step)),
    documents: vi.fn(() => 0),
    dropped: vi.fn(() => []),
    sockets: vi.fn(() => []),
    leaked: vi.fn((): { url: string; bytes: number }[] => []),
    allowed: vi.fn((): HeldRequest[] => []),
    harmless: vi.fn((): HarmlessWrite[] => []),
    held: vi.fn(async (id: string) => holds.filter((h) => h.stepId === id || h.taskId === id)),
    stepEnded: vi.fn(async () => undefined),
    rest: vi.fn(async () => undefined),
    release: vi.fn(async (ids: readonly string[]) => {
      const released = holds.filter((h) => ids.includes(h.id))
      holds = holds.filter((h) => !ids.includes(h.id))
      return { released, gone: [] as Hold[] }
    }),
    refuse: vi.fn(async (which: (h: Hold) => boolean) => {
      const refused = holds.filter(which)
      holds = holds.filter((h) => !which(h))
      return refused
    }),
  }
  return { barrier, add: (hold: Hold) => void holds.push(hold), holds: () => holds }
}
