import { expect } from 'vitest'
import type { Action, NextData, ObservationInput, ScriptStep, StatusView } from '#protocol'
import { EVIDENCE_GOAL } from '#protocol'
import type { TestServer } from './server'

export const CLIENT = 'client_test_1'

/** A real 1×1 PNG, base64, for artifacts. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

/** A plausible observation from the extension; override what the test cares about. */
export function observation(overrides: Partial<ObservationInput> = {}): ObservationInput {
  return {
    status: 'done',
    url: 'http://127.0.0.1:9/shop',
    title: 'Shop',
    elementTree: '[0]<a href="/">Home</a>\n[1]<input type=text name=q placeholder="Search">\n[2]<button>Place order</button>',
    elements: [
      { index: 0, tag: 'a', text: 'Home', fingerprint: 'f0' },
      { index: 1, tag: 'input', attributes: { type: 'text', name: 'q' }, fingerprint: 'f1' },
      { index: 2, tag: 'button', text: 'Place order', fingerprint: 'f2' },
    ],
    visibleTextSnippet: 'Home Search Place order',
    errors: [],
    timing: { totalMs: 12 },
    ...overrides,
  }
}

export async function ok<T>(promise: Promise<{ status: number; body: any }>): Promise<T> {
  const res = await promise
  if (res.status !== 200 || res.body?.ok !== true) throw new Error(`expected ok, got ${res.status}: ${JSON.stringify(res.body)}`)
  return res.body.data as T
}

export function agent(server: TestServer, clientId = CLIENT) {
  const self = {
    start: (body: { goal?: string; script?: ScriptStep[]; startUrl?: string; clientId?: string | null }) =>
      ok<{ taskId: string; status: string }>(
        server.api('POST', '/api/agent/start', {
          goal: body.goal ?? 'test goal',
          ...(body.clientId === null ? {} : { clientId: body.clientId ?? clientId }),
          ...(body.script ? { script: body.script } : {}),
          ...(body.startUrl ? { startUrl: body.startUrl } : {}),
        }),
      ),
    next: (taskId?: string, waitMs = 0) =>
      ok<NextData>(server.api('POST', '/api/agent/next', { clientId, ...(taskId ? { taskId } : {}), waitMs })),
    report: (action: Pick<Action, 'taskId' | 'actionId'>, obs: Partial<ObservationInput> = {}) =>
      ok<{ accepted: boolean; duplicate: boolean; status: string }>(
        server.api('POST', '/api/agent/report', { taskId: action.taskId, actionId: action.actionId, observation: observation(obs) }),
      ),
    status: (taskId: string) => ok<StatusView>(server.api('GET', `/api/agent/status?taskId=${taskId}`)),
    command: (name: 'pause' | 'resume' | 'cancel', taskId: string, reason?: string) =>
      ok<{ status: string }>(server.api('POST', `/api/agent/${name}`, { taskId, ...(reason ? { reason } : {}) })),
    confirm: (taskId: string, actionId: string, approved: boolean, reason?: string) =>
      ok<{ status: string }>(server.api('POST', '/api/agent/confirm', { taskId, actionId, approved, ...(reason ? { reason } : {}) })),
    answer: (taskId: string, answer: string) => ok<{ status: string }>(server.api('POST', '/api/agent/answer', { taskId, answer })),
    /** The side panel's answer to a site question: Allow or Don't allow. */
    answerSite: (taskId: string, siteAccess: 'allowed' | 'refused') =>
      ok<{ status: string }>(server.api('POST', '/api/agent/answer', { taskId, answer: siteAccess === 'refused' ? 'Do not go there.' : 'Allowed.', siteAccess })),
    /** Polls until the task offers an action (planning is asynchronous). */
    async nextAction(taskId: string): Promise<Action> {
      const reply = await self.next(taskId, 5000)
      expect(reply.action, `expected an action, task is ${reply.status}`).not.toBeNull()
      return reply.action!
    },
    /**
     * Reports the picture the server asks for before a confirmation (a low-risk screenshot, nothing else may
     * come first), then waits for the task to ask the person.
     */
    async waitForConfirmation(taskId: string, obs: Partial<ObservationInput> = {}): Promise<StatusView> {
      const view = await self.status(taskId)
      if (view.task.status === 'WAITING_CONFIRMATION') return view
      const evidence = await self.nextAction(taskId)
      expect(evidence).toMatchObject({ type: 'screenshot', risk: 'low', requiresConfirmation: false, reason: EVIDENCE_GOAL })
      await self.report(evidence, obs)
      return self.waitFor(taskId, 'WAITING_CONFIRMATION')
    },
    /** Polls until the task reaches `status`. */
    async waitFor(taskId: string, status: string, timeoutMs = 5000): Promise<StatusView> {
      const until = Date.now() + timeoutMs
      for (;;) {
        const view = await self.status(taskId)
        if (view.task.status === status) return view
        if (Date.now() > until) throw new Error(`task ${taskId} is ${view.task.status}, expected ${status}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
  }
  return self
}
