import { computed, signal } from '@preact/signals'
import type { StatusView, TaskView } from '#protocol'
import { isTerminal } from '#protocol'
import type { ServerClient } from '../server/client'
import { isServerError } from '../server/errors'
import type { PanelT } from './i18n'
import type { Notices } from './notices'
import { panelControls } from './controls'
import type { Screenshots } from './screenshots'

export interface FollowedTaskDeps {
  client: Pick<ServerClient, 'status' | 'confirm' | 'answer' | 'pause' | 'resume' | 'cancel' | 'tasks' | 'exportAudit'>
  followed: { get(): Promise<string | null>; set(taskId: string | null): Promise<void> }
  screenshots: Screenshots
  /** Saves a file the way a download link does. */
  download: (blob: Blob, filename: string) => void
  wake: () => Promise<void>
  /** Tells the worker the person changed the task, so the page's indicator follows and a canceled step ends now. */
  changed: (taskId: string) => Promise<void>
  t: PanelT
  notices: Notices
  /** The person approved with "always allow": the list of allowed writes changed. */
  allowedChanged?: () => Promise<void>
}

/** Screenshots worth fetching: the pending step's evidence and the newest steps' pictures. */
const SHOWN_STEPS = 20

/** The task the panel shows: its live status, the person's answers to it, and the recent tasks to switch to. */
export function createFollowedTask(deps: FollowedTaskDeps) {
  const { client, t, notices } = deps
  const taskId = signal<string | null>(null)
  const view = signal<StatusView | null>(null)
  const recent = signal<TaskView[]>([])
  const rejectReason = signal('')
  const answerText = signal('')
  /** "Always allow this on this site", ticked on the card: it belongs to the card it was ticked on. */
  const alwaysAllow = signal(false)
  /** "Allow requests like this for the rest of this task": the same, for this task only; one or the other. */
  const allowForTask = signal(false)

  const status = computed(() => view.value?.task.status ?? null)
  /** What the person can do with the task now: every button and card the panel shows asks this. */
  const controls = computed(() => panelControls(status.value))
  // A step still waits behind a takeover, but it is decided only once the task is resumed: no card meanwhile.
  const pending = computed(() => (controls.value.confirm ? (view.value?.pendingConfirmation ?? null) : null))
  const question = computed(() => (controls.value.answer ? (view.value?.task.question ?? null) : null))
  const finished = computed(() => !!status.value && isTerminal(status.value))
  /** The planner is deciding: the server says so, or the task runs with no action out and none to approve. */
  const thinking = computed(() => {
    const v = view.value
    if (!v || v.task.status !== 'RUNNING') return false
    return v.thinking ?? (!v.currentAction && !v.pendingConfirmation)
  })
  /** The action out in the page right now (not one waiting for approval). */
  const running = computed(() => {
    const v = view.value
    return v?.currentAction && !v.pendingConfirmation && !isTerminal(v.task.status) ? v.currentAction : null
  })

  /** Status requests asked and the newest one shown: the 1 s poll and a click's refresh overlap. */
  let asked = 0
  let shown = 0

  async function refresh() {
    const id = taskId.value
    if (!id) {
      view.value = null
      return
    }
    const seq = ++asked
    let next: StatusView
    try {
      next = await client.status(id)
    } catch (error) {
      if (isServerError(error, 'NOT_FOUND') && taskId.value === id) await follow(null)
      return
    }
    // The person switched tasks while this was on its way, or a newer answer is shown already: an older one
    // would bring back a confirmation that was just decided.
    if (taskId.value !== id || seq < shown) return
    shown = seq
    const before = view.value
    view.value = next
    if (before?.pendingConfirmation?.actionId !== next.pendingConfirmation?.actionId) {
      rejectReason.value = ''
      alwaysAllow.value = false
      allowForTask.value = false
    }
    const names = [
      ...(next.pendingConfirmation?.evidence?.screenshot ? [next.pendingConfirmation.evidence.screenshot.name] : []),
      ...next.steps.slice(-SHOWN_STEPS).flatMap((s) => (s.artifacts ?? []).map((a) => a.name)),
    ]
    await deps.screenshots.want(id, names)
  }

  async function follow(id: string | null) {
    if (id !== taskId.value) {
      deps.screenshots.clear()
      view.value = null
      answerText.value = ''
      rejectReason.value = ''
      alwaysAllow.value = false
      allowForTask.value = false
    }
    taskId.value = id
    await deps.followed.set(id)
    await refresh()
  }

  async function loadRecent() {
    recent.value = await client.tasks(10).catch(() => recent.value)
  }

  /**
   * A command on the followed task, then the new state and a nudge to the worker; a command that takes the task
   * from the agent or gives it back (pause, resume, cancel) is told to the worker first.
   */
  const command = <R>(what: (id: string) => Promise<R>, done: string | ((result: R) => string), control = false) =>
    notices.run(async () => {
      const id = taskId.value
      if (!id) return
      const result = await what(id)
      notices.say(typeof done === 'function' ? done(result) : done)
      if (control) await deps.changed(id)
      await refresh()
      await deps.wake()
    })

  return {
    taskId,
    view,
    recent,
    status,
    controls,
    pending,
    question,
    finished,
    thinking,
    running,
    rejectReason,
    answerText,
    alwaysAllow,
    allowForTask,
    images: deps.screenshots.urls,

    async load() {
      taskId.value = await deps.followed.get()
      await Promise.all([refresh(), loadRecent()])
    },
    refresh,
    follow,
    loadRecent,
    setRejectReason: (text: string) => void (rejectReason.value = text),
    setAnswer: (text: string) => void (answerText.value = text),
    setAlwaysAllow: (on: boolean) => {
      alwaysAllow.value = on
      if (on) allowForTask.value = false
    },
    setAllowForTask: (on: boolean) => {
      allowForTask.value = on
      if (on) alwaysAllow.value = false
    },

    /**
     * Approves or rejects the action the card showed (`actionId`): when another one has replaced it meanwhile, the
     * click decides nothing, since the person never saw the new one.
     */
    decide(approved: boolean, actionId: string) {
      const p = pending.value
      if (!p || p.actionId !== actionId) return Promise.resolve()
      const reason = approved ? '' : rejectReason.value.trim() || t('confirm.defaultReason')
      // Only a held write can be allowed like this: the card offers it nowhere else.
      const release = approved && p.action.type === 'release'
      const always = release && alwaysAllow.value
      const forTask = release && allowForTask.value && !always
      return command(
        async (id) => {
          const scope = always ? { always } : forTask ? { forTask } : {}
          await client.confirm({ taskId: id, actionId: p.actionId, approved, ...(reason ? { reason } : {}), ...scope })
          if (always) await deps.allowedChanged?.()
        },
        t(always ? 'confirm.allowedFromNow' : forTask ? 'confirm.allowedForTask' : approved ? 'confirm.approved' : 'confirm.rejected'),
      )
    },

    answer() {
      const text = answerText.value.trim()
      if (!text) return Promise.resolve()
      return command(async (id) => {
        await client.answer({ taskId: id, answer: text })
        answerText.value = ''
      }, t('question.answered'))
    },

    /** Sends a fixed answer (a site the person just authorised) without touching what they were typing. */
    reply: (text: string, done: string) => command((id) => client.answer({ taskId: id, answer: text }), done),
    /** The person's word on a site the task asked for: what the panel says after depends on where the task went. */
    siteAnswer: (text: string, siteAccess: 'allowed' | 'refused', done: (status: string) => string) =>
      command((id) => client.answer({ taskId: id, answer: text, siteAccess }), (result) => done(result.status)),

    pause: () => command((id) => client.pause({ taskId: id, reason: 'Paused in the side panel' }), t('controls.paused'), true),
    resume: () => command((id) => client.resume({ taskId: id }), t('controls.resumed'), true),
    cancel: () => command((id) => client.cancel({ taskId: id, reason: 'Canceled in the side panel' }), t('controls.canceled'), true),

    exportAudit: () =>
      notices.run(async () => {
        const id = taskId.value
        if (!id) return
        deps.download(await client.exportAudit(id), `tandem-audit-${id}.zip`)
        notices.say(t('controls.exported'))
      }),
  }
}
export type FollowedTask = ReturnType<typeof createFollowedTask>
