import { z } from 'zod'
import type { WxtBrowser as Browser } from 'wxt/browser'
import { storage } from 'wxt/utils/storage'
import type { TaskStatus } from '#protocol'
import { createTranslator, pickLang } from '../../../ui/i18n'
import { readState } from '../executor/state'
import type { ServerClient } from '../server/client'
import { badgeFor, waitsFor, type Waiting } from './badge'
import { tabOfTask } from './indicator-sync'
import { NOTIFICATION_ICON } from './notification-icon'

const WaitingSchema = z.object({ taskId: z.string(), kind: z.enum(['confirm', 'ask']), key: z.string(), goal: z.string() })
export const AttentionState = z.object({
  waiting: z.record(z.string(), WaitingSchema),
  /** Keys already notified, newest last: one notification per pending action or question. */
  notified: z.array(z.string()),
})
type AttentionState = z.output<typeof AttentionState>
const EMPTY: AttentionState = { waiting: {}, notified: [] }
const NOTIFIED_KEPT = 50

/** Kept in storage: a restarted worker must neither forget the badge nor notify the same decision twice. */
export const attentionItem = storage.defineItem<AttentionState>('local:tandem.attention', { fallback: EMPTY })

const en = {
  confirmTitle: 'Tandem needs your approval',
  confirmMessage: '“{goal}”: a risky step waits for you to approve or reject it.',
  askTitle: 'Tandem has a question',
  askMessage: '“{goal}”: answer it in the side panel to go on.',
}
const zh: Partial<typeof en> = {
  confirmTitle: 'Tandem 需要你的批准',
  confirmMessage: '“{goal}”：有一个高风险步骤等你批准或拒绝。',
  askTitle: 'Tandem 有一个问题',
  askMessage: '“{goal}”：请在侧边栏中回答后继续。',
}

export interface AttentionDeps {
  action: Pick<Browser['action'], 'setBadgeText' | 'setBadgeBackgroundColor'>
  notifications: Pick<Browser['notifications'], 'create' | 'clear'>
  tabs: Pick<Browser['tabs'], 'update'>
  windows: Pick<Browser['windows'], 'update'>
  sidePanel?: Pick<Browser['sidePanel'], 'open'>
  server: Pick<ServerClient, 'status'>
  panelOpen: () => Promise<boolean>
  locale: string | undefined
}

const hash = (text: string) => {
  let h = 0
  for (const char of text) h = (Math.imul(h, 31) + char.codePointAt(0)!) | 0
  return (h >>> 0).toString(36)
}

/**
 * Tells the person when a task waits for their decision: the toolbar badge while anything waits, and a
 * notification once per pending action or question while the side panel is closed.
 */
export function createAttention(deps: AttentionDeps) {
  const t = createTranslator({ en, 'zh-CN': zh }, pickLang(deps.locale))
  let queue: Promise<unknown> = Promise.resolve()

  async function read(): Promise<AttentionState> {
    const parsed = AttentionState.safeParse(await attentionItem.getValue())
    return parsed.success ? parsed.data : EMPTY
  }

  /** What exactly waits: the action to approve or the question, from the task's status. */
  async function describe(taskId: string, kind: Waiting['kind']): Promise<Waiting> {
    try {
      const view = await deps.server.status(taskId)
      const key = kind === 'confirm' ? `confirm:${view.pendingConfirmation?.actionId ?? taskId}` : `ask:${taskId}:${hash(view.task.question ?? '')}`
      return { taskId, kind, key, goal: view.task.goal }
    } catch {
      return { taskId, kind, key: `${kind}:${taskId}`, goal: '' }
    }
  }

  async function notify(waiting: Waiting) {
    const goal = waiting.goal.length > 80 ? `${waiting.goal.slice(0, 79)}…` : waiting.goal
    await deps.notifications.create(waiting.key, {
      type: 'basic',
      iconUrl: NOTIFICATION_ICON,
      title: t(waiting.kind === 'confirm' ? 'confirmTitle' : 'askTitle'),
      message: t(waiting.kind === 'confirm' ? 'confirmMessage' : 'askMessage', { goal }),
      priority: 2,
      requireInteraction: true,
    })
  }

  /** Whether this worker has set the badge once: a fresh one sets it even when nothing changed. */
  let badgeShown = false

  async function seen(taskId: string | null, status: TaskStatus | null) {
    const state = await read()
    const waiting = { ...state.waiting }
    const gone: Waiting[] = []
    if (taskId === null) {
      // No active task at all: nothing can be waiting.
      gone.push(...Object.values(waiting))
      for (const id of Object.keys(waiting)) delete waiting[id]
    } else {
      const kind = waitsFor(status)
      const known = waiting[taskId]
      if (known && known.kind !== kind) {
        gone.push(known)
        delete waiting[taskId]
      }
      if (kind && !waiting[taskId]) waiting[taskId] = await describe(taskId, kind)
    }
    let notified = state.notified
    const fresh = Object.values(waiting).filter((w) => !notified.includes(w.key))
    if (fresh.length && !(await deps.panelOpen())) {
      for (const w of fresh) await notify(w).catch((error) => console.warn('[tandem] notification failed', error))
      notified = [...notified, ...fresh.map((w) => w.key)].slice(-NOTIFIED_KEPT)
    }
    // Seen after every step: a task that goes on running changes nothing here, and costs no write.
    const same = notified === state.notified && !gone.length && sameWaiting(waiting, state.waiting) && badgeShown
    if (same) return
    await attentionItem.setValue({ waiting, notified })
    for (const w of gone) await deps.notifications.clear(w.key).catch(() => false)
    const badge = badgeFor(Object.values(waiting))
    await deps.action.setBadgeText({ text: badge.text })
    if (badge.text) await deps.action.setBadgeBackgroundColor({ color: badge.color })
    badgeShown = true
  }

  return {
    /** The status of a task as the worker just saw it (null: this client has no active task). */
    seen(taskId: string | null, status: TaskStatus | null): Promise<void> {
      const run = queue.then(() => seen(taskId, status))
      queue = run.catch((error) => console.warn('[tandem] could not update the badge', error))
      return run
    },
    /** A click on a notification: bring the task's tab forward and open the side panel beside it. */
    async clicked(notificationId: string): Promise<void> {
      const entry = Object.values((await read()).waiting).find((w) => w.key === notificationId)
      const tabId = entry ? tabOfTask(await readState(), entry.taskId) : null
      if (tabId === null) {
        await deps.notifications.clear(notificationId).catch(() => false)
        return
      }
      // First, while the click still counts as the person's gesture (sidePanel.open needs one).
      const opened = deps.sidePanel?.open({ tabId }).catch(() => undefined)
      const tab = await deps.tabs.update(tabId, { active: true }).catch(() => undefined)
      if (tab?.windowId !== undefined) await deps.windows.update(tab.windowId, { focused: true }).catch(() => undefined)
      await opened
      await deps.notifications.clear(notificationId).catch(() => false)
    },
  }
}
export type Attention = ReturnType<typeof createAttention>

const sameWaiting = (a: Record<string, Waiting>, b: Record<string, Waiting>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k])
