import type { ScriptStep, WordParams } from '#protocol'
import { countSteps, firesHandlers } from '#protocol'
import type { Planner, PlannerOutput } from '../tasks/planner'
import type { TaskRecord } from '../tasks/task-record'
import { replanStep } from './replan-step'
import { TARGET_GONE, targetsOf, withOnlyTarget } from './step-targets'

interface ScriptState {
  cursor: number
  /** Which of the last step's targets (targetsOf) it was sent with. */
  alt?: number
  /** The last step was re-planned by the model or handed to the person: its failure is final. */
  fixed?: 'model' | 'person'
}

export interface ScriptPlannerDeps {
  /** The model, when one is configured: asked for the element of a step whose recorded targets are all gone. */
  model?: Planner
}

const describeFailure = (errors: { code: string; message: string }[]) =>
  errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'the step failed'

const intentOf = (step: ScriptStep) => ('reason' in step && step.reason ? step.reason : step.type)

/** The step as the engine gets it: named by its first target when it carries several (tried in order on failure). */
function firstTry(step: ScriptStep): { step: ScriptStep; alt?: number } {
  const targets = targetsOf(step)
  return targets.length > 1 ? { step: withOnlyTarget(step, targets[0]), alt: 0 } : { step }
}

/**
 * Runs a task's script in order, one step at a time. A step whose element is gone is tried by its next recorded
 * target, then by the model for that step alone (when one is configured), else the person is asked to do it;
 * any other failed or rejected step ends the task.
 */
export function createScriptPlanner(deps: ScriptPlannerDeps = {}): Planner {
  return {
    kind: 'script',
    immediate: true,
    // The model may take seconds: a step it is asked about is decided in the background, not inside the report.
    decidesNow(task) {
      const state = (task.plannerState as ScriptState | undefined) ?? { cursor: 0 }
      const previous = task.script?.[state.cursor - 1]
      return !(deps.model && previous && recovering(state, task.lastOutcome) && (state.alt ?? 0) + 1 >= targetsOf(previous).length)
    },
    async decide({ task, observation }): Promise<PlannerOutput> {
      const script = task.script ?? []
      const state = (task.plannerState as ScriptState | undefined) ?? { cursor: 0 }
      const { cursor } = state
      const last = task.lastOutcome
      // Steps are named by the number the person sees beside them, not by the script's own count.
      const counted = countSteps(task.steps)
      if (last?.kind === 'rejected') {
        const details = { step: counted, type: last.type, ...(last.reason ? { reason: last.reason } : {}) }
        return fail('REJECTED', `The person rejected step ${counted} (${last.type})${last.reason ? `: ${last.reason}` : '.'}`, details)
      }
      const previous = script[cursor - 1]
      if (previous && recovering(state, last)) {
        const targets = targetsOf(previous)
        const next = (state.alt ?? 0) + 1
        if (next < targets.length) {
          return { decision: { kind: 'act', actions: [withOnlyTarget(previous, targets[next])] }, state: { cursor, alt: next }, goal: intentOf(previous) }
        }
        if (deps.model && observation) {
          const { step, output } = await replanStep(deps.model, task, observation, previous, targets)
          const spent = { ...(output.usage ? { usage: output.usage } : {}), ...(output.audit ? { audit: { ...output.audit, reason: 'a recorded step whose element is gone' } } : {}) }
          if (step) return { decision: { kind: 'act', actions: [step] }, state: { cursor, fixed: 'model' }, goal: intentOf(previous), ...spent }
          return { ...askPerson(previous, counted, cursor), ...spent }
        }
        return askPerson(previous, counted, cursor)
      }
      if (last?.kind === 'taken_over' && previous && !firesHandlers(previous.type)) {
        // Stopped by the person's takeover, not failed: a wait or a read runs again on the page they hand back. A step
        // that acts on the page is not done twice; the script goes on after it.
        return { decision: { kind: 'act', actions: [firstTry(previous).step] }, state: { cursor }, goal: intentOf(previous) }
      }
      if (last?.kind === 'failed') {
        // What the reader needs to say why in their language: a navigation failure's reason and address, a refused site.
        const first = last.errors[0]
        const words = { ...plainFields(first?.details), ...(first?.origin ? { origin: first.origin } : {}), step: counted, type: last.type }
        return fail(first?.code ?? 'ACTION_FAILED', `Step ${counted} (${last.type}) failed: ${describeFailure(last.errors)}`, words)
      }
      const step = script[cursor]
      if (!step) {
        const text = `Ran all ${counted} steps of the script.`
        return { decision: { kind: 'done', success: true, text, code: 'SCRIPT_DONE', params: { n: counted } }, state: { cursor } }
      }
      if (step.type === 'done') return { decision: { kind: 'done', success: step.success, text: step.text, data: step.data }, state: { cursor: cursor + 1 } }
      if (step.type === 'ask_user') return { decision: { kind: 'ask', question: step.question }, state: { cursor: cursor + 1 } }
      const sent = firstTry(step)
      // The next step comes at once when it is one the page runs, not a question or the end.
      const next = script[cursor + 1]
      const followed = !!next && next.type !== 'done' && next.type !== 'ask_user'
      const after = { cursor: cursor + 1, ...(sent.alt !== undefined ? { alt: sent.alt } : {}) }
      return { decision: { kind: 'act', actions: [sent.step] }, state: after, ...(followed ? { followed } : {}) }
    },
  }
}

/**
 * Only a step recorded with several ways to find its element (a demonstration) is recovered when its element is
 * gone; a hand-written script's step that misses its element fails the task as it always has.
 */
const recovering = (state: ScriptState, last: TaskRecord['lastOutcome']) =>
  last?.kind === 'failed' && state.alt !== undefined && !state.fixed && last.errors.some((e) => TARGET_GONE.has(e.code))

/** The person does the step in the tab; their answer lets the script go on with the step after it. */
const askPerson = (step: ScriptStep, counted: number, cursor: number): PlannerOutput => ({
  decision: {
    kind: 'ask',
    question: `Step ${counted} could not find its element on the page: ${intentOf(step)}. Please do this step yourself in the tab, then answer here to go on.`,
    code: 'RECORDED_STEP_GONE',
    params: { step: counted, intent: intentOf(step) },
  },
  state: { cursor, fixed: 'person' },
})

/** The string and number fields of an error's details, the shape a task's error keeps. */
const plainFields = (details: unknown): WordParams =>
  details && typeof details === 'object'
    ? (Object.fromEntries(Object.entries(details).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as WordParams)
    : {}

const fail = (code: string, message: string, details: WordParams): PlannerOutput => ({ decision: { kind: 'fail', code, message, details } })
