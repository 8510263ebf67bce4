import type { ActionForm, Observation, PlannerAudit, TaskPlan, Usage, WordParams } from '#protocol'
import type { TaskRecord } from './task-record'

/** What a planner decides for a task that has nothing queued. */
export type Decision =
  | { kind: 'act'; actions: ActionForm[] }
  | { kind: 'done'; success: boolean; text: string; data?: unknown; code?: string; params?: WordParams }
  | { kind: 'ask'; question: string; /** The question as a code and params, for the reader's language. */ code?: string; params?: WordParams }
  | { kind: 'fail'; code: string; message: string; details?: WordParams }
  /** A plan-first task's plan, for the person to approve before anything runs. */
  | { kind: 'plan'; plan: TaskPlan }

export interface PlannerInput {
  task: TaskRecord
  /** The latest observation of the page, when there is one. */
  observation: Observation | null
}

export interface PlannerOutput {
  decision: Decision
  /** What the decided actions are for (the model's next_goal), shown with each of their steps. */
  goal?: string
  /** The planner's own state, saved with the task when the decision is applied. */
  state?: unknown
  /** What the decision cost, for the task's usage totals; audit details go in `audit`. */
  usage?: Partial<Usage>
  audit?: PlannerAudit
  /** Another action is already known to follow these at once (a script's next step): see Action.followed. */
  followed?: boolean
}

/** Decides a task's next actions. The engine asks; the script planner and the LLM planner (lib/agent) implement it. */
export interface Planner {
  readonly kind: 'script' | 'llm'
  /** Cheap, deterministic decisions are made inside the request that needs them instead of in the background. */
  readonly immediate?: boolean
  /** For a planner that is immediate but for some decisions (the script asking the model about one step): false leaves this one to the background. */
  readonly decidesNow?: (task: TaskRecord) => boolean
  decide(input: PlannerInput): Promise<PlannerOutput>
}
