import { vi } from 'vitest'
import type { Action, NextData, ReportBodyInput } from '#protocol'
import { ServerError } from '../lib/server/errors'

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
