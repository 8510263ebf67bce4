import type { AuditEvent } from '#protocol'
import type { HoldRule } from './proxy'
import { actionIdOf, auditOf, inflightAt, tabStatus, isNextFor, isNextWith, isReportOf, sleep, taskPage, TERMINAL, until, within, type FaultRig, type RunTask } from './rig'
import { WAIT_SEQ, type RunPlan } from './schedule'

/** What a fault did: when it struck, and what it saw that the checks need. */
export interface Struck {
  /** When the fault struck; null where the task had nothing left to recover from. */
  faultAt: number | null
  /** The audit as the server showed it just before it was killed: every one of these must survive. */
  before?: AuditEvent[]
  /** Replies to reports sent beside the extension. */
  direct: { actionId: string; status: number; body: any }[]
  /** Replies that were not what the protocol promises. */
  problems: string[]
  /** Where the worker really was when it was stopped, if not where the plan aimed. */
  landed?: string
  /** How long the extension waited on a hung call before it gave up by itself. */
  gaveUpMs?: number
}

interface Context {
  rig: FaultRig
  plan: RunPlan
  task: RunTask
  /**
   * Starts the run's task and wakes the extension, as the click on "Start" does. Every fault aimed at one of
   * the task's calls is laid before this: the extension's waiting long-poll gets the opening action at once.
   */
  begin: () => Promise<void>
}

type Inject = (ctx: Context) => Promise<Struck>

const struck = (faultAt: number | null, more: Partial<Struck> = {}): Struck => ({ faultAt, direct: [], problems: [], ...more })

async function held(rule: HoldRule, what: string) {
  return within(rule.held, what, 45_000)
}

/** How long the extension may take to give up on a call nobody answers: its own deadline, with room for a loaded machine. */
export const GIVE_UP_MS = 60_000

/** Waits until the page has the action with this seq (the executor marked it started). */
async function inPage({ rig, task }: Context, seq: number) {
  const actionId = await until(`action ${seq} delivered`, () => actionIdOf(rig.proxy, task.taskId, seq))
  await inflightAt(rig, actionId, ['started'])
  return actionId
}

async function stopWorkerThenWake(rig: FaultRig, after?: () => void): Promise<number> {
  await rig.h.ext.stopWorker()
  const at = Date.now()
  after?.()
  await rig.h.ext.wake()
  return at
}

async function killThenRestart(rig: FaultRig, taskId: string, pauseMs: number, whileDown?: () => void): Promise<Struck> {
  const { events } = await auditOf(rig, taskId)
  await rig.h.server.kill('SIGKILL')
  const at = Date.now()
  whileDown?.()
  await sleep(pauseMs)
  await rig.h.server.restart()
  // As a click in the panel would: the extension may be waiting out its back-off.
  await rig.h.ext.wake()
  return struck(at, { before: events })
}

async function sendReport(rig: FaultRig, body: any) {
  const { status, body: reply } = await rig.h.server.api('POST', '/api/agent/report', body)
  return { actionId: String(body?.actionId), status, body: reply }
}

const workerStop: Record<string, Inject> = {
  async delivered(ctx) {
    const rule = ctx.rig.proxy.holdResponse(isNextWith(ctx.task, ctx.plan.seq))
    await ctx.begin()
    const answer = await held(rule, `the delivery of action ${ctx.plan.seq}`)
    // The server handed the action out; the worker dies before the answer reaches it.
    return struck(await stopWorkerThenWake(ctx.rig, () => answer.drop()))
  },

  async locked(ctx) {
    const rule = ctx.rig.proxy.holdResponse(isNextWith(ctx.task, ctx.plan.seq))
    await ctx.begin()
    const answer = await held(rule, `the delivery of action ${ctx.plan.seq}`)
    // The page is loading again (slowly) when the action arrives: the worker takes the lock, then waits for
    // the load before anything reaches the page. That wait is where it dies.
    const page = await taskPage(ctx.rig, ctx.task)
    await page.evaluate(() => void (location.href = `${location.href}&slow=2500`))
    await until('the tab to start loading', async () => (await tabStatus(ctx.rig, ctx.task)) === 'loading', 5000)
    answer.release()
    const actionId = answer.exchange.response!.json.data.action.actionId
    const landed = await inflightAt(ctx.rig, actionId, ['locked', 'started', 'finished'])
    return struck(await stopWorkerThenWake(ctx.rig), { landed })
  },

  async 'mid-action'(ctx) {
    await ctx.begin()
    await inPage(ctx, WAIT_SEQ)
    await sleep(ctx.plan.jitterMs)
    return struck(await stopWorkerThenWake(ctx.rig))
  },

  async 'before-report'(ctx) {
    const rule = ctx.rig.proxy.holdRequest(isReportOf(ctx.rig.proxy, ctx.task, ctx.plan.seq))
    await ctx.begin()
    const report = await held(rule, `the report of action ${ctx.plan.seq}`)
    return struck(await stopWorkerThenWake(ctx.rig, () => report.drop()))
  },
}

const serverKill: Record<string, Inject> = {
  async 'mid-action'(ctx) {
    await ctx.begin()
    await inPage(ctx, WAIT_SEQ)
    await sleep(ctx.plan.jitterMs)
    return killThenRestart(ctx.rig, ctx.task.taskId, ctx.plan.jitterMs)
  },

  async 'before-report'(ctx) {
    const rule = ctx.rig.proxy.holdRequest(isReportOf(ctx.rig.proxy, ctx.task, ctx.plan.seq))
    await ctx.begin()
    const report = await held(rule, `the report of action ${ctx.plan.seq}`)
    // Let the report go while the server is down: it finds nobody there.
    return killThenRestart(ctx.rig, ctx.task.taskId, ctx.plan.jitterMs, () => report.release())
  },

  async 'any-time'(ctx) {
    await ctx.begin()
    await sleep(ctx.plan.jitterMs)
    return killThenRestart(ctx.rig, ctx.task.taskId, 300)
  },
}

const duplicateReport: Record<string, Inject> = {
  async 'replay-last'(ctx) {
    await ctx.begin()
    await until('the task to finish', async () => TERMINAL.includes((await ctx.rig.h.status(ctx.task.taskId)).task.status))
    const last = ctx.rig.proxy.exchanges.filter((e) => e.path === '/api/agent/report' && e.json?.taskId === ctx.task.taskId).at(-1)
    if (!last) throw new Error('no report of the task went through the proxy')
    const reply = await sendReport(ctx.rig, last.json)
    const problems = reply.status === 200 && reply.body.data.duplicate === true ? [] : [`a replayed report got ${reply.status} ${JSON.stringify(reply.body)}`]
    return struck(null, { direct: [reply], problems })
  },

  async 'older-id'(ctx) {
    const rule = ctx.rig.proxy.holdRequest(isReportOf(ctx.rig.proxy, ctx.task, ctx.plan.seq))
    await ctx.begin()
    const report = await held(rule, `the report of action ${ctx.plan.seq}`)
    const at = Date.now()
    // The report of the action before (at seq 2, the opening navigate's), already applied: sent again, late.
    const older = ctx.rig.proxy.exchanges.find((e) => e.response?.status === 200 && isReportOf(ctx.rig.proxy, ctx.task, ctx.plan.seq - 1)(e))
    if (!older) throw new Error(`no answered report of action ${ctx.plan.seq - 1} went through the proxy`)
    const replies = [
      await sendReport(ctx.rig, older.json),
      await sendReport(ctx.rig, { ...report.exchange.json, actionId: `a_never${ctx.plan.index}` }),
    ]
    const problems: string[] = []
    if (replies[0].status !== 200 || replies[0].body.data.duplicate !== true) problems.push(`an older report got ${replies[0].status} ${JSON.stringify(replies[0].body)}`)
    if (replies[1].status !== 409) problems.push(`a report for an action never handed out got ${replies[1].status}`)
    report.release()
    return struck(at, { direct: replies, problems })
  },

  async concurrent(ctx) {
    const rule = ctx.rig.proxy.holdRequest(isReportOf(ctx.rig.proxy, ctx.task, ctx.plan.seq))
    await ctx.begin()
    const report = await held(rule, `the report of action ${ctx.plan.seq}`)
    const at = Date.now()
    const copies = Promise.all([1, 2, 3].map(() => sendReport(ctx.rig, report.exchange.json)))
    report.release()
    const direct = await copies
    const original = await until('the original report to be answered', () => report.exchange.response)
    const fresh = [...direct.map((d) => d.body?.data?.duplicate), original.json?.data?.duplicate].filter((d) => d === false).length
    const answered = direct.every((d) => d.status === 200) && original.status === 200
    const problems = fresh === 1 && answered ? [] : [`${fresh} of 4 concurrent reports were applied (${direct.map((d) => d.status).join(',')},${original.status})`]
    return struck(at, { direct, problems })
  },
}

function tabFault(act: (ctx: Context) => Promise<void>): Record<string, Inject> {
  return {
    async 'mid-action'(ctx) {
      await ctx.begin()
      await inPage(ctx, WAIT_SEQ)
      await sleep(ctx.plan.jitterMs)
      await act(ctx)
      return struck(Date.now())
    },
    async 'between-steps'(ctx) {
      const rule = ctx.rig.proxy.holdResponse(isNextWith(ctx.task, ctx.plan.seq))
      await ctx.begin()
      const answer = await held(rule, `the delivery of action ${ctx.plan.seq}`)
      await act(ctx)
      const at = Date.now()
      answer.release()
      return struck(at)
    },
  }
}

/**
 * Takes the call and never answers it: the request held before the server sees it, or the server's answer held
 * after it was given, the connection open either way. Nobody wakes the extension: its own deadline has to give up
 * on the call and try again. When it has, the connection is cut, so the held request never reaches the server.
 */
function hang(at: 'request' | 'response'): Inject {
  return async ({ rig, plan, task, begin }) => {
    const what = plan.call === 'next' ? `the delivery of action ${plan.seq}` : `the report of action ${plan.seq}`
    const match =
      plan.call === 'report' ? isReportOf(rig.proxy, task, plan.seq)
      : at === 'request' ? isNextFor(rig.proxy, task, plan.seq)
      : isNextWith(task, plan.seq)
    const rule = at === 'request' ? rig.proxy.holdRequest(match) : rig.proxy.holdResponse(match)
    await begin()
    const call = await held(rule, what)
    const hungAt = Date.now()
    try {
      const gaveUp = await within(call.abandoned, `the extension to give up on ${what}`, GIVE_UP_MS).catch(() => null)
      const problems = gaveUp === null ? [`the extension still waited for ${what} ${GIVE_UP_MS / 1000} s after the proxy hung it`] : []
      return struck(hungAt, { problems, ...(gaveUp === null ? {} : { gaveUpMs: gaveUp - hungAt }) })
    } finally {
      call.drop()
    }
  }
}

export const INJECT: Record<string, Record<string, Inject>> = {
  'worker-stop': workerStop,
  'server-kill': serverKill,
  'duplicate-report': duplicateReport,
  'tab-closed': tabFault(async (ctx) => (await taskPage(ctx.rig, ctx.task)).close()),
  'tab-navigated': tabFault(async (ctx) => void (await (await taskPage(ctx.rig, ctx.task)).goto(`${ctx.rig.h.site.url}/arrived`))),
  hung: { 'before-server': hang('request'), 'after-answer': hang('response') },
}
