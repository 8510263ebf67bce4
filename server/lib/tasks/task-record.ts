import { countSteps } from '#protocol'
import type { Principal, RiskKind, TaskAnswer, TaskExchange, TaskPlan, WriteAllowRule } from '#protocol'
import type { Action, ActionForm, BarrierMode, HeldRequest, ConfirmationEvidence, RiskReason, ObservationError, ScriptStep, StepView, TaskResult, TaskStatus, TaskView, Usage, WordParams } from '#protocol'

/** The action a task has in flight: proposed, waiting for the person, ready, or handed to a client. */
export interface InFlight {
  action: Action
  /** What the action was made from; a release comes from the barrier, not from a plan. */
  form: ActionForm | { type: 'release' }
  phase: 'awaiting_confirmation' | 'ready' | 'dispatched'
  reasons: string[]
  /** The reasons as data (absent in a task stored before they were kept). */
  reasonDetails?: RiskReason[]
  dispatchedAt?: string
  deliveries: number
  /** What the step is for: the planner's next goal or the script step's reason. */
  goal?: string
  /** The element, as a person would name it. */
  targetText?: string
  /** The picture taken before asking the person: not part of the task's own work (never fails or ends it). */
  isEvidence?: boolean
  /** What the confirmation card shows, fixed when the action is proposed. */
  evidence?: ConfirmationEvidence
}

/** What the planner learns about the step before its decision. */
export type Outcome =
  | { kind: 'done'; actionId: string; type: string; url?: string; extracted?: unknown }
  | { kind: 'failed'; actionId: string; type: string; errors: ObservationError[]; url?: string }
  | { kind: 'rejected'; actionId: string; type: string; reason?: string }
  | { kind: 'answered'; question?: string; answer: string }
  /** The person took the task over while the step ran, and it was ended there: not a failure of the step. */
  | { kind: 'taken_over'; actionId: string; type: string; url?: string }

/** A task as the server stores it. Only the server sees this shape; clients see TaskView. */
export interface TaskRecord {
  id: string
  /** Bumped on every write, so a decision made on an old copy can be recognised and dropped. */
  rev: number
  goal: string
  status: TaskStatus
  /** `mcp`: the MCP client that started the task decides each step (lib/mcp); no planner of Tandem's runs. */
  mode: 'script' | 'llm' | 'mcp'
  clientId?: string
  /** The MCP client that chooses the steps of a task in mode `mcp`. */
  driver?: { name: string; version: string }
  startUrl?: string
  skill?: string
  skillName?: string
  /** The skill's Chinese for the words the task says. */
  wordsZh?: Record<string, string>
  createdAt: string
  updatedAt: string
  script?: ScriptStep[]
  plannerState?: unknown
  /** The goal the planner gave with its latest decision, for the actions it queued. */
  planGoal?: string
  /** The planner's latest decision is followed at once by another action (see Action.followed). */
  followed?: boolean
  /** Actions decided but not yet proposed (the model may answer up to three at once). */
  queue: ActionForm[]
  seq: number
  current: InFlight | null
  steps: StepView[]
  lastOutcome: Outcome | null
  pausedFrom?: TaskStatus
  /** When the person last handed control back: the page may have changed under their hands since the last step. */
  resumedAt?: string
  question?: string
  /** The open question as a code and params, when the panel can say it in the reader's language. */
  questionWords?: { code: string; params: WordParams }
  result?: TaskResult
  error?: { code: string; message: string; details?: WordParams }
  usage: Usage
  /** Values typed into credential fields: scrubbed from the audit and from stored observations. */
  sensitive?: string[]
  /** Writes the barrier's fallback blocked in the last step: shown on the card that asks to run it again. */
  blockedWrites?: HeldRequest[]
  /** How the task tab's writes are watched, as the last step said: where they are held, effects decide (asksFirst). */
  barrier?: BarrierMode
  /** The site the open question asks access to, and whether the task starts there (see siteQuestion). */
  askedSite?: { origin: string; start: boolean }
  /** Sites the person answered "Don't allow" for: no step goes there again in this task. */
  refusedSites?: string[]
  /** Steps the engine stopped because they were headed for a refused site. */
  refusedAttempts?: number
  /** The seq of the last audit event this record reflects (absent in a task stored before it was kept). */
  auditSeq?: number
  /** The planner proposes a plan for the person to approve before anything runs. */
  planFirst?: boolean
  plan?: PlanRecord
  /** Who started the task (absent in a task stored before principals were kept: the owner's). */
  startedBy?: Principal
  /** The latest answer someone gave the task, and who: an agent hears the person's word through it. */
  lastAnswer?: TaskAnswer
  /** Writes the person allowed "for the rest of this task": every later action of this task carries them. */
  allowWrites?: WriteAllowRule[]
  /** The questions the task asked and the person's answers, oldest first, for the panel's timeline. */
  exchanges?: TaskExchange[]
}

/** A plan-first task's plan: proposed, then approved (as proposed or edited) and held to while the task runs. */
export interface PlanRecord {
  state: 'proposed' | 'approved'
  proposed: TaskPlan
  approved?: TaskPlan
  edited?: boolean
  /** Sites and kinds of risky action the person approved off-plan steps for: not asked about again in this task. */
  addedSites?: string[]
  addedKinds?: RiskKind[]
}

export function toTaskView(task: TaskRecord): TaskView {
  return {
    id: task.id,
    goal: task.goal,
    status: task.status,
    mode: task.mode,
    ...(task.clientId ? { clientId: task.clientId } : {}),
    ...(task.startUrl ? { startUrl: task.startUrl } : {}),
    ...(task.skill ? { skill: task.skill } : {}),
    ...(task.skillName ? { skillName: task.skillName } : {}),
    ...(task.wordsZh ? { wordsZh: task.wordsZh } : {}),
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    // The steps a person counts: the pictures taken before asking are not steps.
    stepCount: countSteps(task.steps),
    ...(task.question ? { question: task.question } : {}),
    ...(task.askedSite && task.question ? { askedSite: task.askedSite.origin } : {}),
    ...(task.driver ? { driver: task.driver } : {}),
    ...(task.question && task.questionWords ? { questionWords: task.questionWords } : {}),
    ...(task.result ? { result: task.result } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(task.planFirst ? { planFirst: true } : {}),
    ...(task.startedBy ? { startedBy: task.startedBy } : {}),
    ...(task.lastAnswer ? { lastAnswer: task.lastAnswer } : {}),
    ...(task.plan
      ? {
          plan: {
            state: task.plan.state,
            proposed: task.plan.proposed,
            ...(task.plan.approved ? { approved: task.plan.approved } : {}),
            ...(task.plan.edited ? { edited: true } : {}),
          },
        }
      : {}),
  }
}

/** The planner has nothing to work with yet: a running task with no action in flight and nothing queued. */
export const needsDecision = (task: TaskRecord) =>
  (task.status === 'RUNNING' || task.status === 'WAITING_PAGE') && !task.current && task.queue.length === 0
