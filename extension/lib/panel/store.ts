import { computed, signal } from '@preact/signals'
import type { StatusView } from '#protocol'
import { isTerminal } from '#protocol'
import { Activity } from '../executor/state'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import { Settings } from '../settings'

export interface PanelDeps {
  client: Pick<ServerClient, 'health' | 'info' | 'start' | 'confirm' | 'answer' | 'status'>
  settings: { get(): Promise<Settings>; set(value: Settings): Promise<void> }
  activity: { get(): Promise<unknown>; watch(cb: (value: unknown) => void): () => void }
  /** Tells the worker to pull work now. */
  wake: () => Promise<void>
  /** The task the panel follows, kept across panel reloads. */
  followed: { get(): Promise<string | null>; set(taskId: string | null): Promise<void> }
}

const fallbackActivity = (): Activity => ({ connection: 'unknown', message: '', failures: 0, retryAt: null, task: null, lastAction: null, needsSite: null })

/** Why a call failed, in words that say what to do. */
export function explain(error: unknown, serverUrl: string): string {
  if (!isServerError(error)) return `Something went wrong: ${(error as Error)?.message ?? error}`
  switch (error.code) {
    case 'UNREACHABLE':
      return `The Tandem server at ${serverUrl} is not reachable. Start it (npm start) or correct the URL.`
    case 'UNAUTHORIZED':
      return 'The server is up but rejected the token. Paste the token the server printed on its first start.'
    case 'NOT_CONFIGURED':
      return 'Enter the server token first.'
    default:
      return error.message
  }
}

/** The side panel's state: signals the components read, and the few things the person can do. */
export function createPanelStore(deps: PanelDeps) {
  const settings = signal<Settings | null>(null)
  const activity = signal<Activity>(fallbackActivity())
  const taskId = signal<string | null>(null)
  const view = signal<StatusView | null>(null)
  const notice = signal('')
  const busy = signal(false)

  const pending = computed(() => view.value?.pendingConfirmation ?? null)
  const question = computed(() => (view.value?.task.status === 'WAITING_USER' ? (view.value.task.question ?? null) : null))
  const needsSite = computed(() => {
    const site = activity.value.needsSite
    return site && site.taskId === taskId.value && view.value?.task.status === 'WAITING_USER' ? site.origin : null
  })
  const statusLine = computed(() => {
    const a = activity.value
    if (a.connection !== 'ok' && a.connection !== 'unknown') return a.message
    const task = view.value?.task
    if (!task) return a.connection === 'ok' ? 'Connected. No task yet.' : 'Not connected yet.'
    const last = a.lastAction && a.lastAction.taskId === task.id ? ` · last step: ${a.lastAction.type} ${a.lastAction.status}` : ''
    return `${task.status}: ${task.goal}${last}`
  })

  const setActivity = (value: unknown) => {
    const parsed = Activity.safeParse(value)
    activity.value = parsed.success ? parsed.data : fallbackActivity()
    // The worker picked up a task the panel did not start (console, API): follow it once the current one is over.
    const picked = activity.value.task?.taskId
    const idle = !taskId.value || (!!view.value && isTerminal(view.value.task.status))
    if (picked && picked !== taskId.value && idle) void follow(picked)
  }

  async function follow(id: string | null) {
    taskId.value = id
    await deps.followed.set(id)
    await refresh()
  }

  async function run(what: () => Promise<void>) {
    busy.value = true
    try {
      await what()
    } catch (error) {
      notice.value = explain(error, settings.value?.serverUrl ?? '')
    } finally {
      busy.value = false
    }
  }

  async function refresh() {
    if (!taskId.value) {
      view.value = null
      return
    }
    try {
      view.value = await deps.client.status(taskId.value)
    } catch (error) {
      if (isServerError(error, 'NOT_FOUND')) await follow(null)
    }
  }

  return {
    settings,
    activity,
    taskId,
    view,
    notice,
    busy,
    pending,
    question,
    needsSite,
    statusLine,
    isFinished: computed(() => !!view.value && isTerminal(view.value.task.status)),

    async load() {
      settings.value = await deps.settings.get()
      setActivity(await deps.activity.get())
      deps.activity.watch(setActivity)
      taskId.value = await deps.followed.get()
      await refresh()
    },
    refresh,

    saveSettings: (input: { serverUrl: string; token: string }) =>
      run(async () => {
        const parsed = Settings.safeParse(input)
        if (!parsed.success) {
          notice.value = 'The server URL must be an http(s) address, such as http://127.0.0.1:3000.'
          return
        }
        await deps.settings.set(parsed.data)
        settings.value = parsed.data
        notice.value = 'Saved.'
        await deps.wake()
      }),

    testConnection: () =>
      run(async () => {
        await deps.client.health()
        const info = await deps.client.info()
        notice.value = `Connected to ${info.name} ${info.version}${info.llm.configured ? '' : ' (no LLM configured: scripted tasks only)'}.`
        await deps.wake()
      }),

    startTask: (input: { goal: string; startUrl: string }) =>
      run(async () => {
        const goal = input.goal.trim()
        if (!goal) {
          notice.value = 'Say what the task should achieve.'
          return
        }
        const startUrl = input.startUrl.trim()
        const started = await deps.client.start({ goal, ...(startUrl ? { startUrl } : {}) })
        notice.value = 'Task started.'
        await follow(started.taskId)
        await deps.wake()
      }),

    decide: (approved: boolean, reason?: string) =>
      run(async () => {
        const p = pending.value
        if (!p || !taskId.value) return
        await deps.client.confirm({ taskId: taskId.value, actionId: p.actionId, approved, ...(reason ? { reason } : {}) })
        notice.value = approved ? 'Approved.' : 'Rejected.'
        await refresh()
        await deps.wake()
      }),

    answer: (text: string) =>
      run(async () => {
        if (!taskId.value || !text.trim()) return
        await deps.client.answer({ taskId: taskId.value, answer: text.trim() })
        notice.value = 'Answered.'
        await refresh()
        await deps.wake()
      }),

    /** Called after the browser's permission prompt (which must be the first thing the click does). */
    siteDecided: (origin: string, granted: boolean) =>
      run(async () => {
        if (!granted) {
          notice.value = `Tandem still may not act on ${origin}.`
          return
        }
        if (taskId.value) await deps.client.answer({ taskId: taskId.value, answer: `The site ${origin} is authorised; continue.` })
        notice.value = `Authorised ${origin}.`
        await refresh()
        await deps.wake()
      }),

    follow,
  }
}
export type PanelStore = ReturnType<typeof createPanelStore>
