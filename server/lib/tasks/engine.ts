import { nanoid } from 'nanoid'
import type { Action, AllowedWrite, AskAlwaysEntry, AskAlwaysRule, ClientView, NextBody, NextData, ReportBody, ReportData, StartBody, TaskStatus, WriteAllowRule } from '#protocol'
import { emptyUsage, isTerminal, MAX_ASK_ALWAYS, normaliseWebAddress } from '#protocol'
import { badRequest, conflict, notFound } from '../http/errors'
import { principalOfSource, type RequestSource } from '../http/source'
import { actionForExtension } from '../privacy/for-extension'
import { redactFor } from '../privacy/task-redaction'
import { advance, plannerFor } from './advance'
import { applyDecision, applyObservation } from './apply'
import { clientChannel, UNBOUND_CHANNEL, taskChannel } from './channels'
import { createTaskCommands } from './commands'
import { createTaskDriver } from './drive'
import { createPlanCommands } from './plan-commands'
import { createMutate, promoteStaged } from './core'
import type { EngineDeps } from './deps'
import type { PendingEvent } from './events'
import { proposeNext } from './propose'
import { planStart } from './start-plan'
import { needsDecision, type TaskRecord } from './task-record'
import { allowWritesFor } from './task-allow'
import { createTaskViews } from './views'

const deliverable = (task: TaskRecord) =>
  !!task.current && task.current.phase !== 'awaiting_confirmation' && (task.status === 'RUNNING' || task.status === 'WAITING_PAGE')

/** The task engine behind /api/agent/*: one action in flight per task, every change audited and persisted. */
export function createEngine(deps: EngineDeps) {
  const { store, clients, notifier, policy, artifacts, planners } = deps
  const pollIntervalMs = deps.pollIntervalMs ?? 1000
  /** Settles when the start-up repair (see promoteStaged) is done; every change waits for it. */
  let repaired: Promise<void> = Promise.resolve()
  const mutate = createMutate(deps, () => repaired)
  const planning = new Map<string, Promise<void>>()

  /** Asks the planner for a decision when a task needs one; one planning run per task at a time. */
  function kick(taskId: string): Promise<void> {
    const running = planning.get(taskId)
    if (running) return running
    const run = (async () => {
      for (;;) {
        const task = await store.get(taskId)
        // A task an MCP client drives waits for the client's next step (drive.ts): no planner of Tandem's runs.
        if (!task || !needsDecision(task) || task.mode === 'mcp') return
        const observation = await store.getObservation(taskId)
        const planner = plannerFor(task, planners)
        const output = planner
          ? await planner.decide({ task, observation }).catch((error: unknown) => ({
              decision: { kind: 'fail' as const, code: (error as { code?: string }).code ?? 'PLANNER_ERROR', message: String((error as Error).message ?? error) },
            }))
          : { decision: { kind: 'fail' as const, code: 'LLM_NOT_CONFIGURED', message: 'No LLM is configured on this server.' } }
        const applied = await mutate(taskId, (current, events) => {
          // Someone changed the task while the planner thought (pause, cancel, another server): decide again.
          if (current.rev !== task.rev || !needsDecision(current)) return false
          applyDecision(current, output, planner?.kind ?? 'llm', events)
          proposeNext(current, observation, policy, events, deps.uploads)
          // A step the engine failed before dispatch (an address that is none, a refused site) needs a new decision.
          return needsDecision(current) ? 'again' : true
        })
        if (applied === true) return
      }
    })()
      .catch((error) => console.error(`[tandem] planning task ${taskId} failed`, error))
      .finally(() => planning.delete(taskId))
    planning.set(taskId, run)
    return run
  }

  async function bindIfUnbound(task: TaskRecord, clientId: string): Promise<TaskRecord> {
    if (task.clientId) return task
    return mutate(task.id, (t, events) => {
      if (!t.clientId) {
        t.clientId = clientId
        events.push({ type: 'task.bound', data: { clientId } })
      }
      return t
    })
  }

  async function taskFor(body: NextBody): Promise<TaskRecord | null> {
    if (body.taskId) {
      const task = await store.get(body.taskId)
      if (!task) throw notFound(`No task ${body.taskId}.`)
      if (task.clientId && task.clientId !== body.clientId) throw conflict('This task belongs to another client.', { clientId: task.clientId })
      return bindIfUnbound(task, body.clientId)
    }
    const mine = (await store.listActive())
      .filter((t) => !t.clientId || t.clientId === body.clientId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    const pick = mine.find(deliverable) ?? mine[0]
    return pick ? bindIfUnbound(pick, body.clientId) : null
  }

  // The only place secret values are filled in.
  const forExtension = actionForExtension(deps)

  const siteRules = async (): Promise<WriteAllowRule[]> => ((await deps.allowedWrites?.list()) ?? []).map(({ at: _, by: __, ...rule }) => rule)

  /**
   * Every action carries the person's rules as they are now: the writes always allowed on their sites and those
   * allowed for the rest of its task (the barrier lets those through), and the harmless kinds always asked about
   * (the barrier holds those).
   */
  async function withPersonRules(task: TaskRecord, action: Action): Promise<Action> {
    const allowWrites = allowWritesFor(task, await siteRules())
    const askAlways = ((await deps.askAlways?.list()) ?? []).slice(0, MAX_ASK_ALWAYS).map(({ site, kind }) => ({ site, kind }))
    return { ...action, ...(allowWrites.length ? { allowWrites } : {}), ...(askAlways.length ? { askAlways } : {}) }
  }

  /** An approved upload carries its file's bytes; nothing of the file leaves the server before the approval. */
  function withUploadFile(action: Action): Action {
    if (action.type !== 'upload' || !action.confirmation) return action
    const read = deps.uploads?.read(String(action.params.file ?? '')) ?? {
      ok: false as const,
      message: 'No upload folder is set on the Tandem server (TANDEM_UPLOAD_DIR), so no file can be uploaded.',
    }
    const stamped = read.ok ? { content: read.content, mime: read.mime, bytes: read.bytes } : { refused: read.message }
    return { ...action, params: { ...action.params, ...stamped } }
  }

  async function deliver(task: TaskRecord, source: RequestSource): Promise<Action | null> {
    const action = await dispatch(task, source)
    return action && withPersonRules(task, withUploadFile(forExtension(action)))
  }

  async function dispatch(task: TaskRecord, source: RequestSource): Promise<Action | null> {
    if (!deliverable(task)) return null
    if (task.current!.phase === 'dispatched') return task.current!.action
    return mutate(task.id, (t, events) => markDispatched(t, events, source))
  }

  /** Hands the task's current action to `source` (once; later calls return it as it is), or null if none may go. */
  function markDispatched(t: TaskRecord, events: PendingEvent[], source: RequestSource): Action | null {
    if (!deliverable(t)) return null
    const current = t.current!
    if (current.phase === 'ready') {
      current.phase = 'dispatched'
      current.dispatchedAt = new Date().toISOString()
      current.deliveries += 1
      events.push({ type: 'action.dispatched', actionId: current.action.actionId, data: { source } })
    }
    return current.action
  }

  return {
    kick,

    /**
     * `serverOrigin`: where the request reached this server, for a skill that starts on one of its pages.
     * `driver: 'mcp'`: a task the model would plan is planned by the MCP client that asked (mode `mcp`) unless
     * the body asks for Tandem's own model (`mode: "llm"`); scripts still run as scripts.
     */
    async start(body: StartBody, source: RequestSource, serverOrigin?: string, driver?: 'mcp') {
      const byClient = driver === 'mcp' && body.mode !== 'llm'
      const plan = await planStart(body, deps.findSkill, !!planners.llm || byClient, serverOrigin)
      const { script, skill, skillName, wordsZh } = plan
      const mode: TaskRecord['mode'] = byClient && plan.mode === 'llm' ? 'mcp' : plan.mode
      // Tandem's model proposes the plan: a script runs as it is written, and an MCP client plans for itself.
      if (body.planFirst && mode !== 'llm') throw badRequest(`planFirst needs Tandem's model to propose the plan: a task that runs a script${mode === 'mcp' ? ' or that an MCP client plans' : ''} cannot plan first.`)
      if (body.clientId) await clients.touch({ ...source, clientId: body.clientId })
      const clientId = body.clientId ?? (await clients.mostRecent())?.clientId
      const now = new Date().toISOString()
      // `example.com` was accepted as https://example.com/: the task opens, and shows, the address it means.
      const startUrl = plan.startUrl ? (normaliseWebAddress(plan.startUrl) ?? plan.startUrl) : undefined
      const task: TaskRecord = {
        id: nanoid(16),
        rev: 0,
        goal: body.goal,
        status: 'RUNNING',
        mode,
        ...(mode === 'mcp' && source.mcp ? { driver: source.mcp } : {}),
        ...(clientId ? { clientId } : {}),
        ...(startUrl ? { startUrl } : {}),
        ...(skill ? { skill, ...(skillName ? { skillName } : {}), ...(wordsZh ? { wordsZh } : {}) } : {}),
        createdAt: now,
        updatedAt: now,
        ...(script ? { script } : {}),
        // A plan-first task opens nothing before its plan is approved (see plan-commands).
        queue: startUrl && !body.planFirst ? [{ type: 'navigate', url: startUrl }] : [],
        seq: 0,
        current: null,
        steps: [],
        lastOutcome: null,
        usage: emptyUsage(),
        ...(body.planFirst ? { planFirst: true } : {}),
        startedBy: principalOfSource(source),
      }
      const events: PendingEvent[] = [
        {
          type: 'task.created',
          data: { goal: task.goal, mode, startUrl: task.startUrl, skill: task.skill, ...(task.skillName ? { skillName: task.skillName } : {}), ...(task.wordsZh ? { wordsZh: task.wordsZh } : {}), clientId, scriptSteps: script?.length, source, ...(body.planFirst ? { planFirst: true } : {}) },
        },
      ]
      await advance(task, null, deps, events)
      const written = await deps.audit.appendMany(task.id, redactFor(task, deps)(events))
      task.auditSeq = written.at(-1)?.seq
      await store.create(task)
      notifier.notify(clientId ? clientChannel(clientId) : UNBOUND_CHANNEL)
      void kick(task.id)
      return { taskId: task.id, status: task.status }
    },

    async next(body: NextBody, source: RequestSource, signal?: AbortSignal): Promise<NextData> {
      await clients.touch({ ...source, clientId: body.clientId })
      const deadline = Date.now() + (body.waitMs ?? 0)
      let firstStatus: TaskStatus | null | undefined
      for (;;) {
        const task = await taskFor(body)
        if (task) {
          if (needsDecision(task)) void kick(task.id)
          const action = await deliver(task, source)
          if (action) return { taskId: task.id, status: task.status, action }
        }
        const status = task?.status ?? null
        const reply = { taskId: task?.id ?? null, status, action: null }
        if (status && isTerminal(status)) return reply
        // A task that starts waiting for the person is news for the client; one still being planned is not.
        if (firstStatus === undefined) firstStatus = status
        else if (status !== firstStatus && status !== 'RUNNING' && status !== 'WAITING_PAGE') return reply
        const remaining = deadline - Date.now()
        if (remaining <= 0 || signal?.aborted) return reply
        const channels = [clientChannel(body.clientId), UNBOUND_CHANNEL, ...(task ? [taskChannel(task.id)] : [])]
        await notifier.wait(channels, Math.min(remaining, pollIntervalMs), signal)
      }
    },

    async report(body: ReportBody, source: RequestSource): Promise<ReportData> {
      const decoded = artifacts.decode(body.observation.artifacts ?? [])
      const { artifacts: _, ...reported } = body.observation
      // Which rule let each write through is told apart from the site's rules as they are now.
      const allowedOnSites = reported.allowed?.length ? await siteRules() : []
      const reply = await mutate(body.taskId, async (task, events) => {
        const observation = redactFor(task, deps)(reported)
        if (task.steps.some((s) => s.actionId === body.actionId)) return { accepted: true, duplicate: true, status: task.status }
        const current = task.current
        if (!current || current.action.actionId !== body.actionId) {
          throw conflict('That action is not the one in flight for this task.', { inFlight: current?.action.actionId ?? null })
        }
        if (current.phase === 'awaiting_confirmation') throw conflict('That action has not been approved yet, so it cannot have run.')
        const previous = await store.getObservation(task.id)
        // The page the planner chose its targets from stays the one its queued actions are resolved against.
        const keepPrevious = current.isEvidence && previous !== null
        // Apart from each other, so written side by side: the pictures, and the page as it is now.
        const [refs] = await Promise.all([
          artifacts.save(task.id, `${String(current.action.seq).padStart(4, '0')}`, decoded),
          keepPrevious ? undefined : store.setObservation(task.id, observation),
        ])
        events.push({ type: 'report.received', actionId: body.actionId, data: { source } })
        applyObservation(task, observation, refs, previous?.url, events, allowedOnSites)
        await advance(task, keepPrevious ? previous : observation, deps, events)
        // The next step is often ready already (a script's): handed over with the reply, it saves the reporter a poll,
        // and dispatched in this same write, the server a second one.
        if (body.takeNext) markDispatched(task, events, source)
        return { accepted: true, duplicate: false, status: task.status }
      })
      if (reply.duplicate) return reply
      void kick(body.taskId)
      if (!body.takeNext) return reply
      const task = await store.get(body.taskId)
      const action = task ? await deliver(task, source) : null
      return { ...reply, status: task?.status ?? reply.status, action }
    },

    /** The writes the person always allows, the newest first. */
    listAllowedWrites: async (): Promise<AllowedWrite[]> => (await deps.allowedWrites?.list()) ?? [],
    /** The person no longer always allows this kind of write: the list after. */
    forgetAllowedWrite: async (rule: WriteAllowRule): Promise<AllowedWrite[]> => (await deps.allowedWrites?.forget(rule)) ?? [],

    /** The harmless kinds the person wants asked about on a site all the same, the newest first. */
    listAskAlways: async (): Promise<AskAlwaysEntry[]> => (await deps.askAlways?.list()) ?? [],
    /** "Always ask" about this harmless kind on this site: the list after. */
    async askAlways(rule: AskAlwaysRule, source: RequestSource): Promise<AskAlwaysEntry[]> {
      if (!deps.askAlways) return []
      await deps.askAlways.add([rule], source.clientId ?? 'api')
      return deps.askAlways.list()
    },
    /** The kind goes unasked on the site again: the list after. */
    forgetAskAlways: async (rule: AskAlwaysRule): Promise<AskAlwaysEntry[]> => (await deps.askAlways?.forget(rule)) ?? [],

    /** The extensions that have called in, the most recently seen first. */
    listClients: (): Promise<ClientView[]> => clients.list(),

    /** After a restart: every unfinished task picks up where it was. */
    async recover() {
      repaired = (async () => {
        for (const task of await store.listActive()) {
          if (await promoteStaged(deps, task)) console.warn(`[tandem] task ${task.id}: saved the change the server stopped in the middle of`)
        }
      })()
      await repaired
      for (const task of await store.listActive()) {
        if (task.queue.length && !task.current) {
          const observation = await store.getObservation(task.id)
          await mutate(task.id, (t, events) => advance(t, observation, deps, events))
        }
        void kick(task.id)
      }
    },

    ...createTaskCommands(deps, mutate, kick),
    ...createTaskDriver(deps, mutate),
    ...createPlanCommands(deps, mutate, kick),
    ...createTaskViews(deps, (taskId) => planning.has(taskId)),
  }
}
export type Engine = ReturnType<typeof createEngine>
