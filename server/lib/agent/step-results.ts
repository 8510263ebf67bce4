import type { StepView } from '#protocol'
import { isEvidenceStep } from '#protocol'
import type { TaskRecord } from '../tasks/task-record'
import { noEffectLine, unmetLine } from './no-effect'
import { cut } from './prompt/tokens'

function stepLine(s: StepView): string {
  const where = s.url ? ` (now at ${cut(s.url, 150)})` : ''
  // A release is the engine's: the page tried to send something while the previous step ran, and the person decided.
  if (s.type === 'release') {
    if (s.outcome === 'done') return `the page's request, held until the person approved it, was sent${where}`
    if (s.outcome === 'rejected') return `the person REFUSED to let the page send what it tried to send; it never reached the site${s.note ? `: "${cut(s.note, 300)}"` : ''}`
    return `what the page tried to send was NOT sent: ${s.errors.map((e) => cut(e.message, 200)).join(', ')}`
  }
  if (s.outcome === 'done' && s.unmet) return `${unmetLine(s.type, s.unmet)}${where}`
  if (s.outcome === 'done') return `${s.type}: done${where}`
  if (s.outcome === 'rejected') return `${s.type}: REJECTED by the person${s.note ? `: "${cut(s.note, 300)}"` : ''}`
  // Not a failure: the person had the page meanwhile, so what is on it now is theirs to have left.
  if (s.outcome === 'taken_over') return `${s.type}: STOPPED when the person took over the page before it finished; they have handed it back: read the page as it is now${where}`
  const noEffect = s.errors.find((e) => e.code === 'ACTION_NO_EFFECT')
  if (noEffect) return `${noEffectLine(s.type, noEffect)}${where}`
  return `${s.type}: FAILED ${s.errors.map((e) => `${e.code} ${cut(e.message, 200)}`).join(', ') || 'with no error reported'}${where}`
}

/**
 * What came of the model's last decision, one line per step the engine ran since `seq`: done, failed with its
 * error, or rejected; actions that never ran and why; and the person's answer to a question.
 */
export function resultsSince(task: TaskRecord, seq: number, decidedTypes: string[]): string[] {
  // The picture taken before a confirmation is the engine's, not the model's: it is no result of its plan.
  const steps = task.steps.filter((s) => s.seq > seq && !isEvidenceStep(s))
  const results = steps.map(stepLine)
  const planned = decidedTypes.filter((t) => t !== 'done' && t !== 'ask_user').length
  // Startup and re-observation steps are the engine's own; only the model's actions can be missing.
  const ran = steps.filter((s) => s.type !== 'observe' && s.type !== 'release').length
  const missing = planned - ran
  if (missing > 0 && steps.length) {
    const last = steps.at(-1)!
    const why = { failed: 'an earlier action failed', rejected: 'an earlier action was rejected', taken_over: 'the person took over', done: 'the page changed' }[last.outcome]
    results.push(`${missing} later action${missing > 1 ? 's were' : ' was'} not run: ${why}`)
  }
  const outcome = task.lastOutcome
  if (outcome?.kind === 'answered') {
    results.push(`the person answered ${JSON.stringify(cut(outcome.answer, 1000))}${outcome.question ? ` to ${JSON.stringify(cut(outcome.question, 300))}` : ''}`)
  }
  return results
}
