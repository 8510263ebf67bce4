import type { StatusView, StepView, TaskAnswer } from '#protocol'
import { isTerminal, principalWords } from '#protocol'

/** The steps the task took after it had `before`, the pictures taken before asking the person left out. */
export const stepsSince = (view: StatusView, before: number): StepView[] => view.steps.slice(before).filter((s) => s.number !== undefined)

const stepLine = (s: StepView) =>
  `step ${s.number} ${s.type}${s.target ? ` “${s.target}”` : ''}: ${s.outcome}${s.errors.length ? ` (${s.errors.map((e) => `${e.code}: ${e.message}`).join('; ')})` : ''}${s.note ? ` — the person said: ${s.note}` : ''}`

/** The latest answer the task was given, and by whom: what the person decided is what the agent needs to hear. */
export function answerLine(answer: TaskAnswer | undefined): string {
  if (!answer) return ''
  const who = principalWords(answer.by).replace(/^the person/, 'The person')
  const why = answer.reason ? `: “${answer.reason}”` : ''
  switch (answer.kind) {
    case 'confirmation':
      return ` ${who} ${answer.approved ? 'approved' : 'rejected'} the risky step${why}.`
    case 'question':
      return ` ${who} answered${answer.question ? ` “${answer.question}”` : ''}: “${answer.answer ?? ''}”.`
    case 'plan':
      return ` ${who} ${answer.approved ? 'approved' : 'did not approve'} the plan${why}.`
    case 'cancel':
      return ` ${who} canceled the task${why}.`
  }
}

/**
 * What the task waits for, said to the agent that drives it, with the latest answer it was given. Whatever the
 * person is asked is theirs to answer: the words say so, and name the tool that waits for their answer.
 */
export function describeTurn(view: StatusView): string {
  const waiting = waitLine(view)
  return view.task.status === 'WAITING_CONFIRMATION' || view.task.status === 'WAITING_USER' ? waiting : waiting + answerLine(view.task.lastAnswer)
}

function waitLine(view: StatusView): string {
  const { task } = view
  const last = view.steps.filter((s) => s.number !== undefined).at(-1)
  const after = last ? ` Last: ${stepLine(last)}.` : ''
  if (isTerminal(task.status)) {
    const why = task.result?.text ?? task.error?.message
    return `The task has ended: ${task.status}${why ? ` — ${why}` : ''}.${after}`
  }
  if (task.status === 'WAITING_CONFIRMATION') {
    const pending = view.pendingConfirmation
    const what = pending ? `${pending.action.type}${pending.evidence?.targetText ? ` “${pending.evidence.targetText}”` : ''}` : 'a step'
    const step = view.currentNumber ? `step ${view.currentNumber}` : 'a step'
    return (
      `Waiting for the person: ${step} (${what}) is risky${pending?.reasons.length ? ` (${pending.reasons.join('; ')})` : ''} ` +
      'and does not run until they approve it in Tandem’s side panel. You cannot approve or reject it for them. ' +
      'Call task_status with waitMs to learn what they decide.'
    )
  }
  if (task.status === 'WAITING_USER') {
    return `Waiting for the person to answer in Tandem’s side panel: “${task.question ?? ''}”. You cannot answer for them. Call task_status with waitMs to learn their answer.`
  }
  if (task.status === 'PAUSED') return `The person has taken over the page; the task goes on when they resume it. Call task_status with waitMs to wait.${after}`
  if (task.mode === 'mcp' && !view.currentAction) return `Your turn: read_page, then act with the next step (or done).${after}`
  if (task.mode !== 'mcp') return `The task is running by ${task.mode === 'script' ? 'its script' : 'Tandem’s own planner'}.${after}`
  return `A step is running in the page. Call task_status with waitMs to wait for it.${after}`
}
