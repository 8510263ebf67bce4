import type { WordParams } from '#protocol'
import { countSteps } from '#protocol'
import type { Planner, PlannerOutput } from '../tasks/planner'

interface ScriptState {
  cursor: number
}

const describeFailure = (errors: { code: string; message: string }[]) =>
  errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'the step failed'

/** Runs a task's script in order, one step at a time; any failed or rejected step ends the task. */
export function createScriptPlanner(): Planner {
  return {
    kind: 'script',
    immediate: true,
    async decide({ task }): Promise<PlannerOutput> {
      const script = task.script ?? []
      const { cursor } = (task.plannerState as ScriptState | undefined) ?? { cursor: 0 }
      const last = task.lastOutcome
      // Steps are named by the number the person sees beside them, not by the script's own count.
      const counted = countSteps(task.steps)
      if (last?.kind === 'rejected') {
        const details = { step: counted, type: last.type, ...(last.reason ? { reason: last.reason } : {}) }
        return fail('REJECTED', `The person rejected step ${counted} (${last.type})${last.reason ? `: ${last.reason}` : '.'}`, details)
      }
      if (last?.kind === 'failed') {
        // What the reader needs to say why in their language: a navigation failure's reason and address, a refused site.
        const first = last.errors[0]
        const words = { ...plainFields(first?.details), ...(first?.origin ? { origin: first.origin } : {}), step: counted, type: last.type }
        return fail(first?.code ?? 'ACTION_FAILED', `Step ${counted} (${last.type}) failed: ${describeFailure(last.errors)}`, words)
      }
      const step = script[cursor]
      const state: ScriptState = { cursor: cursor + 1 }
      if (!step) {
        const text = `Ran all ${counted} steps of the script.`
        return { decision: { kind: 'done', success: true, text, code: 'SCRIPT_DONE', params: { n: counted } }, state: { cursor } }
      }
      if (step.type === 'done') return { decision: { kind: 'done', success: step.success, text: step.text, data: step.data }, state }
      if (step.type === 'ask_user') return { decision: { kind: 'ask', question: step.question }, state }
      // The next step comes at once when it is one the page runs, not a question or the end.
      const next = script[cursor + 1]
      const followed = !!next && next.type !== 'done' && next.type !== 'ask_user'
      return { decision: { kind: 'act', actions: [step] }, state, ...(followed ? { followed } : {}) }
    },
  }
}

/** The string and number fields of an error's details, the shape a task's error keeps. */
const plainFields = (details: unknown): WordParams =>
  details && typeof details === 'object'
    ? (Object.fromEntries(Object.entries(details).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as WordParams)
    : {}

const fail = (code: string, message: string, details: WordParams): PlannerOutput => ({ decision: { kind: 'fail', code, message, details } })
