import { computed, signal } from '@preact/signals'
import { TaskPlan, type PlannedSend, type RiskKind } from '#protocol'
import type { ServerClient } from '../server/client'
import type { FollowedTask } from './followed-task'
import type { PanelT } from './i18n'
import type { Notices } from './notices'
import { panelControls } from './controls'

export interface PlanReviewDeps {
  client: Pick<ServerClient, 'plan'>
  task: Pick<FollowedTask, 'view' | 'taskId' | 'refresh'>
  t: PanelT
  notices: Notices
  wake: () => Promise<void>
}

/** The person's edit of a proposed plan: steps and sites one a line, the sends as rows. */
export interface PlanEdit {
  taskId: string
  steps: string
  sites: string
  sends: PlannedSend[]
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)

/** A plan-first task's proposed plan: read, approved as it is, edited then approved, or not approved (the task is canceled). */
export function createPlanReview({ client, task, t, notices, wake }: PlanReviewDeps) {
  const editing = signal<PlanEdit | null>(null)
  /** The plan waiting for the person, while the followed task waits for it. */
  const proposed = computed(() => {
    const v = task.view.value
    return v && panelControls(v.task.status).plan && v.task.plan?.state === 'proposed' ? v.task.plan.proposed : null
  })
  /** The edit in progress for the plan shown (an edit begun for another task is not shown). */
  const edit = computed(() => (editing.value && editing.value.taskId === task.taskId.value && proposed.value ? editing.value : null))

  function change(patch: Partial<PlanEdit>) {
    if (editing.value) editing.value = { ...editing.value, ...patch }
  }

  const answer = (approved: boolean, plan: TaskPlan | undefined, done: string) =>
    notices.run(async () => {
      const taskId = task.taskId.value
      if (!taskId) return
      await client.plan({ taskId, approved, ...(plan ? { plan } : {}), ...(approved ? {} : { reason: t('plan.rejectedReason') }) })
      editing.value = null
      notices.say(done)
      await task.refresh()
      await wake()
    })

  return {
    proposed,
    edit,
    startEdit() {
      const plan = proposed.value
      const taskId = task.taskId.value
      if (plan && taskId) editing.value = { taskId, steps: plan.steps.join('\n'), sites: plan.sites.join('\n'), sends: plan.sends.map((s) => ({ ...s })) }
    },
    stopEdit: () => void (editing.value = null),
    setSteps: (steps: string) => change({ steps }),
    setSites: (sites: string) => change({ sites }),
    setSend: (i: number, what: string) => change({ sends: editing.value!.sends.map((s, j) => (j === i ? { ...s, what } : s)) }),
    setSendKind: (i: number, kind: RiskKind) => change({ sends: editing.value!.sends.map((s, j) => (j === i ? { ...s, kind } : s)) }),
    removeSend: (i: number) => change({ sends: editing.value!.sends.filter((_, j) => j !== i) }),
    addSend: () => change({ sends: [...(editing.value?.sends ?? []), { what: '', kind: 'sending' }] }),

    /** Approves the plan as shown: the person's edit when they made one, checked here as the server checks it. */
    approve() {
      const e = edit.value
      if (!e) return answer(true, undefined, t('plan.approved'))
      const parsed = TaskPlan.safeParse({ steps: lines(e.steps), sites: lines(e.sites), sends: e.sends.filter((s) => s.what.trim()) })
      if (!parsed.success) {
        notices.fail(t('plan.invalid'))
        return Promise.resolve()
      }
      return answer(true, parsed.data, t('plan.approved'))
    },
    reject: () => answer(false, undefined, t('plan.rejected')),
  }
}
export type PlanReview = ReturnType<typeof createPlanReview>
