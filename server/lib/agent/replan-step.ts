import type { Observation, ScriptStep, Target } from '#protocol'
import { actionSpec, isDecision } from '#protocol'
import type { Planner, PlannerOutput } from '../tasks/planner'
import type { TaskRecord } from '../tasks/task-record'
import { withOnlyTarget } from './step-targets'

const describeTarget = (t: Target) => (t.by === 'role' ? `the ${t.value.replace(':', ' named “')}${t.value.includes(':') ? '”' : ''}` : `${t.by} “${t.value}”`)

/** What the model is told: one step of a recorded procedure, its intent, and how it was found before. */
export function oneStepGoal(step: ScriptStep, tried: Target[]): string {
  const intent = ('reason' in step && step.reason) || step.type
  return [
    `Do only this one step of a recorded procedure: ${intent}.`,
    `It is a ${step.type} step. The element it acted on is no longer found as it was recorded (${tried.map(describeTarget).join('; ')}): the page has changed.`,
    `Find that element on the page as it is now and answer with exactly one ${step.type} action on it. Do not do anything else.`,
  ].join(' ')
}

/**
 * Asks the model for the element of one script step whose recorded target is gone. The step keeps its own
 * action and values (what it types or chooses is never the model's); only where it acts comes from the model.
 * Undefined when the model did not name an element.
 */
export async function replanStep(
  model: Planner,
  task: TaskRecord,
  observation: Observation,
  step: ScriptStep,
  tried: Target[],
): Promise<{ step?: ScriptStep; output: PlannerOutput }> {
  const alone: TaskRecord = { ...task, goal: oneStepGoal(step, tried), plannerState: undefined, lastOutcome: null, queue: [] }
  const output = await model.decide({ task: alone, observation })
  if (output.decision.kind !== 'act') return { output }
  const planned = output.decision.actions.find((a) => !isDecision(a) && a.type !== 'observe')
  if (!planned) return { output }
  const p = planned as { index?: number; selector?: string; target?: Target; text?: string; type: string }
  const named = actionSpec(p.type)?.textNamesTarget
  const target: Target | undefined =
    p.target ??
    (p.index !== undefined ? { by: 'index', value: p.index } : undefined) ??
    (p.selector !== undefined ? { by: 'selector', value: p.selector } : undefined) ??
    (named && p.text !== undefined ? { by: 'text', value: p.text } : undefined)
  if (!target) return { output }
  // An index belongs to the observation the model saw: the page memory checks it is still that element.
  const fingerprint = target.by === 'index' ? observation.elements?.find((e) => e.index === target.value)?.fingerprint : undefined
  return { step: withOnlyTarget(step, fingerprint ? { ...target, fingerprint } : target), output }
}
