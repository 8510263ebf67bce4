import { computed, signal, type ReadonlySignal } from '@preact/signals'
import type { TaskStatus } from '#protocol'
import { AttentionState } from '../worker/attention'
import { waitsFor } from '../worker/badge'

/** A task that waits for the person, and for what: an approval, an answer, or a site to allow. */
export interface WaitingTask {
  taskId: string
  kind: 'confirm' | 'ask' | 'site'
  goal: string
}

export interface WaitingDeps {
  /** What the worker keeps for the toolbar badge: every task of this client that waits for the person. */
  attention?: { get(): Promise<unknown>; watch(cb: (value: unknown) => void): () => void }
  /** The task the panel shows, as its own poll last saw it: fresher than the worker's word about that one. */
  followed: ReadonlySignal<{ taskId: string; status: TaskStatus; goal: string } | null>
  /** The task refused a site and waits for the person to allow it. */
  needsSite: ReadonlySignal<{ taskId: string } | null>
}

/**
 * Every task waiting for the person, the one the panel shows and the others alike: the same list the toolbar's
 * badge counts, so a `!` in the toolbar always has its line at the top of the panel.
 */
export function createWaiting(deps: WaitingDeps) {
  const fromWorker = signal<{ taskId: string; kind: 'confirm' | 'ask'; goal: string }[]>([])

  function take(value: unknown) {
    const parsed = AttentionState.safeParse(value)
    fromWorker.value = parsed.success ? Object.values(parsed.data.waiting).map(({ taskId, kind, goal }) => ({ taskId, kind, goal })) : []
  }

  const tasks = computed<WaitingTask[]>(() => {
    const followed = deps.followed.value
    const site = deps.needsSite.value?.taskId
    // The panel's own poll is newer than the worker's list about the task it shows: a decision just made here
    // is not waiting any more, and one the worker has not seen yet already is.
    const list = fromWorker.value.filter((w) => w.taskId !== followed?.taskId)
    const own = followed ? waitsFor(followed.status) : null
    if (followed && own) list.unshift({ taskId: followed.taskId, kind: own, goal: followed.goal })
    return list.map((w) => ({ ...w, kind: w.kind === 'ask' && w.taskId === site ? 'site' : w.kind }))
  })

  return {
    tasks,
    async load() {
      if (!deps.attention) return
      take(await deps.attention.get())
      deps.attention.watch(take)
    },
  }
}
export type Waiting = ReturnType<typeof createWaiting>
