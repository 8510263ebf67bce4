import { expect } from 'vitest'
import { ErrorEnvelope, toWellFormedText, type AuditEvent, type Skill, type StatusView } from '#protocol'
import { agent } from './agent'
import { asAny, asFilled, asName, asReason, type Verdict } from './hard-text'
import type { ApiResponse, TestServer } from './server'

/**
 * Each scenario sends texts into the fields a skill, a task, a plan or an answer stores, and reads them back: every
 * call answers 200 with the text as the verdict says it is kept, or 400 with an error envelope when it is refused.
 * Never a 5xx. Each returns the statuses it saw, for the run's figures.
 */

export type Statuses = number[]

const all = (...verdicts: Verdict[]) => verdicts.every((v) => v.kept)
const kept = (v: Verdict) => (v.kept ? v.as : undefined)

/** The call answered as the verdict says: 200, or a 400 with the error envelope. */
function expectAnswer(res: ApiResponse<any>, take: boolean, label: string) {
  const what = `${label} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`
  expect(res.status, what).toBeLessThan(500)
  if (take) {
    expect(res.status, what).toBe(200)
  } else {
    expect(res.status, what).toBe(400)
    expect(ErrorEnvelope.parse(res.body).error.code, what).toBe('BAD_REQUEST')
  }
}

const dataOf = async <T>(server: TestServer, path: string): Promise<T> => {
  const res = await server.api('GET', path)
  expect(res.status, `${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200)
  return res.body.data as T
}

const eventsOf = async (server: TestServer, taskId: string) => (await dataOf<{ events: AuditEvent[] }>(server, `/api/audit/${taskId}`)).events

/** A demonstration saved with POST /api/skills/recorded: name, description, SOP, a label and a reason. */
export async function recordedSkill(server: TestServer, slug: string, t: { name: string; description: string; sop: string; label: string; reason: string }): Promise<Statuses> {
  const name = asName(t.name)
  const description = asFilled(t.description)
  const sop = asFilled(t.sop)
  const label = asAny(1)(t.label)
  const body = {
    slug,
    name: t.name,
    description: t.description,
    sop: t.sop,
    steps: [
      { type: 'navigate', url: 'https://shop.example.com/', reason: t.reason },
      { type: 'type', selector: '#q', text: '{{query}}', reason: t.reason },
    ],
    parameters: [{ name: 'query', label: t.label }],
  }
  const res = await server.api('POST', '/api/skills/recorded', body)
  const take = all(name, description, sop, label)
  expectAnswer(res, take, `recorded skill ${JSON.stringify(t)}`)
  if (!take) return [res.status]
  const skill = await dataOf<Skill>(server, `/api/skills/${slug}`)
  expect(skill.name).toBe(kept(name))
  expect(skill.description).toBe(kept(description))
  expect(skill.parameters).toEqual([{ name: 'query', label: t.label }])
  expect(skill.script!.map((s) => ('reason' in s ? s.reason : undefined))).toEqual([t.reason, t.reason])
  expect(skill.body).toBe(`# ${kept(name)}\n\n${kept(sop)}`)
  const search = await server.api('GET', `/api/skills/search?q=${encodeURIComponent(toWellFormedText(t.name.slice(0, 100)))}`)
  expect(search.status).toBe(200)
  return [res.status, 200, search.status]
}

/** A script task with this goal and reason, run to its end and saved with POST /api/skills under this name and description. */
export async function savedSkill(server: TestServer, slug: string, t: { goal: string; reason: string; name: string; description: string }): Promise<Statuses> {
  const a = agent(server)
  const goal = asFilled(t.goal)
  const script = [{ type: 'navigate' as const, url: 'http://127.0.0.1:9/', reason: t.reason }]
  const start = await server.api('POST', '/api/agent/start', { goal: t.goal, clientId: 'client_test_1', script })
  expectAnswer(start, goal.kept, `start ${JSON.stringify(t.goal)}`)
  if (!goal.kept) return [start.status]
  const { taskId } = start.body.data
  await a.report(await a.nextAction(taskId))
  const view = await a.waitFor(taskId, 'SUCCEEDED')
  expect(view.task.goal).toBe(kept(goal))
  const name = asName(t.name)
  const description = asFilled(t.description)
  const res = await server.api('POST', '/api/skills', { taskId, slug, name: t.name, description: t.description })
  const take = all(name, description)
  expectAnswer(res, take, `saved skill ${JSON.stringify(t)}`)
  if (!take) return [start.status, res.status]
  const skill = await dataOf<Skill>(server, `/api/skills/${slug}`)
  expect(skill.name).toBe(kept(name))
  expect(skill.description).toBe(kept(description))
  expect(skill.script![0]).toEqual({ type: 'navigate', url: 'http://127.0.0.1:9/', ...(t.reason ? { reason: t.reason } : {}) })
  return [start.status, res.status, 200]
}

/** A script task that asks twice: the answer to the first, then canceled with a reason. */
export async function answerAndCancel(server: TestServer, t: { answer: string; reason: string }): Promise<Statuses> {
  const a = agent(server)
  const { taskId } = await a.start({ goal: 'Ask, then stop', script: [{ type: 'ask_user', question: 'Which one?' }, { type: 'ask_user', question: 'And then?' }] })
  await a.waitFor(taskId, 'WAITING_USER')
  const answer = asFilled(t.answer)
  const answered = await server.api('POST', '/api/agent/answer', { taskId, answer: t.answer })
  expectAnswer(answered, answer.kept, `answer ${JSON.stringify(t.answer)}`)
  if (answer.kept) await a.waitFor(taskId, 'WAITING_USER')
  const reason = asReason(t.reason)
  const canceled = await server.api('POST', '/api/agent/cancel', { taskId, reason: t.reason })
  expectAnswer(canceled, reason.kept, `cancel ${JSON.stringify(t.reason)}`)
  const events = await eventsOf(server, taskId)
  const said = events.find((e) => e.type === 'user.answered')?.data as { answer?: string } | undefined
  expect(said?.answer).toBe(kept(answer))
  const cancel = events.find((e) => e.type === 'task.canceled')?.data as { reason?: string } | undefined
  expect(cancel?.reason).toBe(kept(reason))
  return [answered.status, canceled.status]
}

/** A high-risk step the person rejects with a reason. */
export async function rejectWithReason(server: TestServer, t: { reason: string }): Promise<Statuses> {
  const a = agent(server)
  const { taskId } = await a.start({ goal: 'Buy it', script: [{ type: 'click', selector: '#buy', risk: 'high' }] })
  const view = await a.waitForConfirmation(taskId)
  const actionId = view.pendingConfirmation!.actionId
  const reason = asReason(t.reason)
  const res = await server.api('POST', '/api/agent/confirm', { taskId, actionId, approved: false, reason: t.reason })
  expectAnswer(res, reason.kept, `confirm ${JSON.stringify(t.reason)}`)
  const answered = (await eventsOf(server, taskId)).find((e) => e.type === 'confirmation.answered')?.data as { reason?: string } | undefined
  expect(answered?.reason).toBe(reason.kept && t.reason ? t.reason : undefined)
  if (!reason.kept) await a.command('cancel', taskId)
  return [res.status]
}

/** A plan-first task with this goal, its plan approved as edited: a step, a site, a send and a reason. */
export async function editedPlan(server: TestServer, t: { goal: string; step: string; site: string; send: string; reason: string }, siteKept: boolean): Promise<Statuses> {
  const a = agent(server)
  const goal = asFilled(t.goal)
  const start = await server.api('POST', '/api/agent/start', { goal: t.goal, clientId: 'client_test_1', planFirst: true })
  expectAnswer(start, goal.kept, `plan-first start ${JSON.stringify(t.goal)}`)
  if (!goal.kept) return [start.status]
  const { taskId } = start.body.data
  await a.waitFor(taskId, 'WAITING_PLAN')
  const step = asFilled(t.step)
  const send = asFilled(t.send)
  const reason = asReason(t.reason)
  const plan = { steps: [t.step], sites: [t.site], sends: [{ what: t.send, kind: 'payment' }] }
  const res = await server.api('POST', '/api/agent/plan', { taskId, approved: true, plan, reason: t.reason })
  const take = all(step, send, reason) && siteKept
  expectAnswer(res, take, `plan ${JSON.stringify(t)}`)
  const view = await dataOf<StatusView>(server, `/api/agent/status?taskId=${taskId}`)
  expect(view.task.goal).toBe(kept(goal))
  if (!take) {
    await a.command('cancel', taskId)
    return [start.status, res.status]
  }
  expect(view.task.plan?.approved?.steps).toEqual([kept(step)])
  expect(view.task.plan?.approved?.sends).toEqual([{ what: kept(send), kind: 'payment' }])
  return [start.status, res.status]
}
