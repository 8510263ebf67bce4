import type { Observation } from '#protocol'
import { applyDecision } from './apply'
import type { EngineDeps } from './deps'
import type { PendingEvent } from './events'
import type { Planner } from './planner'
import { proposeNext } from './propose'
import { needsDecision, type TaskRecord } from './task-record'

/** None for a task an MCP client drives: its steps come from the client (drive.ts), not from a planner. */
export const plannerFor = (task: TaskRecord, planners: EngineDeps['planners']): Planner | undefined =>
  task.mode === 'mcp' ? undefined : task.mode === 'script' ? planners.script : planners.llm

/**
 * Moves a task as far as it can go inside the current change: the next queued form is proposed, and an
 * immediate planner (the script) decides on the spot. Slow planners are left to the background (`kick`).
 */
export async function advance(task: TaskRecord, observation: Observation | null, deps: EngineDeps, events: PendingEvent[]) {
  if (proposeNext(task, observation, deps.policy, events, deps.uploads)) return
  const planner = plannerFor(task, deps.planners)
  if (!planner?.immediate || !needsDecision(task) || planner.decidesNow?.(task) === false) return
  applyDecision(task, await planner.decide({ task, observation }), planner.kind, events)
  proposeNext(task, observation, deps.policy, events, deps.uploads)
}
