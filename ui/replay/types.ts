import type { AllowScope, HarmlessKind, HeldRequest, ObservationError, Principal, WriteAllowRule, Risk, RiskReason, TaskResult, TaskStatus, Usage } from '#protocol'

// What a person reviews of a task, as buildReplay (model.ts) makes it from the audit.

/** A screenshot of a step, by the name the audit stored it under. */
export interface ReplayArtifact {
  name: string
  label: string
}

export interface ReplayConfirmation {
  requestedAt?: string
  reasons: string[]
  /** The reasons as data, one for each sentence, when the audit kept them: shown in the reader's language. */
  reasonDetails?: RiskReason[]
  /** Absent while the person has not answered. */
  answer?: {
    approved: boolean
    by?: string
    at?: string
    reason?: string
    /** Answered in the side panel of the task's own browser. */
    inPanel?: boolean
    /** Who the answer's token proved it to be (audits written since principals were kept). */
    principal?: Principal
    /** Approved with "allow requests like this": the rules made, and for how long. */
    allowed?: { scope: AllowScope; rules: WriteAllowRule[] }
  }
}

export interface ReplayObservation {
  status: 'done' | 'failed'
  url?: string
  title?: string
  errors: ObservationError[]
  extracted?: unknown
}

export interface ReplayDecision {
  at: string
  planner?: string
  model?: string
  /** What the planner set out to do next (the model's next_goal). */
  nextGoal?: string
  thinking?: string
  /** `act`, `done`, `ask` or `fail`. */
  kind?: string
  usage?: Partial<Usage>
  error?: string
  /** For a `fail`: its code and the values its words take, so the reader sees it in their language (describeError). */
  code?: string
  details?: Record<string, string | number>
}

export interface ReplayStep {
  actionId: string
  seq: number
  /** The number a person counts the step by, as the side panel shows it (absent for the picture before asking). */
  number?: number
  type: string
  /** The element acted on, as a person reads it. */
  target?: string
  /** What the action carries besides its target, in words (the URL, the typed text, the keys…). */
  detail?: string
  goal?: string
  risk: Risk
  reasons: string[]
  reasonDetails?: RiskReason[]
  confirmation?: ReplayConfirmation
  proposedAt: string
  dispatchedAt?: string
  finishedAt?: string
  outcome: 'done' | 'failed' | 'rejected' | 'taken_over' | 'pending'
  observation?: ReplayObservation
  before?: ReplayArtifact
  after?: ReplayArtifact
  /** Other screenshots of the step (a page observation, an explicit screenshot). */
  screenshots: ReplayArtifact[]
  /** The decision the step came from. */
  decision?: ReplayDecision
}

export interface ReplayQuestion {
  question: string
  askedAt: string
  reason?: string
  answer?: string
  answeredAt?: string
}

export interface ReplayPause {
  at: string
  from?: string
  reason?: string
  resumedAt?: string
  resumeReason?: string
}

/** A request the write barrier held, let go after approval, refused or dropped. */
export interface ReplayWrite {
  at: string
  outcome: 'held' | 'released' | 'refused' | 'dropped' | 'allowed' | 'harmless'
  request: HeldRequest
  /** For a harmless write: what kind it is. */
  kind?: HarmlessKind
  /** For a write let through: the rule that let it, and whose it is (the site's or the task's). */
  rule?: WriteAllowRule
  scope?: AllowScope
  /** The step it was sent during, when the audit names it. */
  actionId?: string
  /** Why it was held or dropped (a short code), or why it was refused. */
  reason?: string
  /** Who approved or refused it. */
  by?: string
  /** The task's own browser answered: the person, in its side panel. */
  byPanel?: boolean
}

/** An event this replay cannot show: a type it does not know, or a known one whose data is not as it should be. */
export interface ReplayUnknown {
  at: string
  seq: number
  type: string
  /** Set for a known type with malformed data. */
  problem?: string
}

/** One entry of the replay's timeline, in the order it happened. */
export type ReplayItem =
  | { kind: 'decision'; decision: ReplayDecision }
  | { kind: 'step'; step: ReplayStep }
  | { kind: 'question'; question: ReplayQuestion }
  | { kind: 'pause'; pause: ReplayPause }
  | { kind: 'dropped'; at: string; reason?: string; count: number }
  | { kind: 'canceled'; at: string; reason?: string; by?: Principal }
  | { kind: 'write'; write: ReplayWrite }
  | { kind: 'unknown'; event: ReplayUnknown }

export interface ReplayTotals {
  steps: number
  done: number
  failed: number
  rejected: number
  confirmations: number
  approved: number
  screenshots: number
  errors: number
  usage: Usage
  /** From the first event to the last. */
  durationMs: number
}

export interface Replay {
  taskId: string
  goal: string
  mode?: string
  startUrl?: string
  skill?: string
  /** The skill's name as the person gave it (tasks started before names were kept have only the slug). */
  skillName?: string
  /** The skill's Chinese for the words the task says. */
  wordsZh?: Record<string, string>
  clientId?: string
  /** The User-Agent the task's own browser called with: its name for a person ("Chrome 131 on Linux"). */
  clientAgent?: string
  createdAt?: string
  finishedAt?: string
  status?: TaskStatus
  result?: TaskResult
  error?: { code: string; message: string; details?: Record<string, string | number> }
  /** Who canceled the task, when the audit says. */
  canceledBy?: Principal
  steps: ReplayStep[]
  timeline: ReplayItem[]
  questions: ReplayQuestion[]
  pauses: ReplayPause[]
  totals: ReplayTotals
  /** Event types this replay does not know how to show, with how often they occurred. */
  unknown: Record<string, number>
  /** Known event types whose data could not be read, with how often that happened. */
  malformed: Record<string, number>
}
