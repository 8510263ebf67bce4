import { canControl, type TaskControl, type TaskStatus } from '#protocol'

/** Which of the panel's controls show for a task: each one only where the server would act on it. */
export type PanelControls = Record<TaskControl, boolean>

/**
 * The controls of a task in `status`, read from the protocol's one table (TASK_CONTROLS) that the server refuses
 * by: Pause (take over) is not offered while a plan waits for approval, Approve only while a step waits, and so on.
 */
export function panelControls(status: TaskStatus | null | undefined): PanelControls {
  const can = (control: TaskControl) => !!status && canControl(status, control)
  return { pause: can('pause'), resume: can('resume'), cancel: can('cancel'), confirm: can('confirm'), answer: can('answer'), plan: can('plan') }
}
