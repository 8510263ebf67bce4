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
      if (last?.kind === 'rejected') {
        return fail('REJECTED', `The person rejected step ${cursor} (${last.type})${last.reason ? `: ${last.reason}` : '.'}`)
      }
      if (last?.kind === 'failed') {
        return fail(last.errors[0]?.code ?? 'ACTION_FAILED', `Step ${cursor} (${last.type}) failed: ${describeFailure(last.errors)}`)
      }
      const step = script[cursor]
      const state: ScriptState = { cursor: cursor + 1 }
      if (!step) {
        return { decision: { kind: 'done', success: true, text: `Ran all ${script.length} steps of the script.` }, state: { cursor } }
      }
      if (step.type === 'done') return { decision: { kind: 'done', success: step.success, text: step.text, data: step.data }, state }
      if (step.type === 'ask_user') return { decision: { kind: 'ask', question: step.question }, state }
      return { decision: { kind: 'act', actions: [step] }, state }
    },
  }
}

const fail = (code: string, message: string): PlannerOutput => ({ decision: { kind: 'fail', code, message } })
