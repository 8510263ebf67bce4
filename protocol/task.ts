import { z } from 'zod'
import { Action, Risk } from './action'
import { RiskReason } from './risk-reasons'
import { ArtifactLabel, ArtifactMark, ObservationError, UnmetEffect } from './observation'
import { HeldRequest } from './held-request'
import { HarmlessWrite } from './harmless-kind'
import { TaskPlanView } from './task-plan'
import { Principal, TaskAnswer } from './principal'

export const TaskStatus = z.enum([
  'RUNNING',
  'WAITING_CONFIRMATION',
  'WAITING_USER',
  'WAITING_PAGE',
  'PAUSED',
  'SUCCEEDED',
  'FAILED',
  'CANCELED',
  /** A plan-first task's plan waits for the person to approve or edit it; nothing has run yet. */
  'WAITING_PLAN',
])
export type TaskStatus = z.infer<typeof TaskStatus>

export const TERMINAL_STATUSES: readonly TaskStatus[] = ['SUCCEEDED', 'FAILED', 'CANCELED']
export const isTerminal = (status: TaskStatus) => TERMINAL_STATUSES.includes(status)

/** Values a result or an error fills into its words (a step's number, a count, a reason). */
export const WordParams = z.record(z.string(), z.union([z.string(), z.number()]))
export type WordParams = z.infer<typeof WordParams>

export const TaskResult = z.object({
  success: z.boolean(),
  text: z.string(),
  data: z.unknown().optional(),
  /** What `text` says, as data a reader words in their own language (describeResult); absent when the text is the planner's own. */
  code: z.string().optional(),
  params: WordParams.optional(),
})
export type TaskResult = z.infer<typeof TaskResult>

export const Usage = z.object({
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  totalTokens: z.number().int(),
  latencyMs: z.number(),
})
export type Usage = z.infer<typeof Usage>
export const emptyUsage = (): Usage => ({ llmCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, latencyMs: 0 })

/** The public view of a task. */
export const TaskView = z.object({
  id: z.string(),
  goal: z.string(),
  status: TaskStatus,
  /** `mcp`: an outside agent connected over MCP decides each step (server/lib/mcp). */
  mode: z.enum(['script', 'llm', 'mcp']),
  clientId: z.string().optional(),
  startUrl: z.string().optional(),
  /** The slug of the skill the task follows: its key in the API. */
  skill: z.string().optional(),
  /** That skill's name as the person gave it: what a reader shows (tasks started before it was kept have none). */
  skillName: z.string().optional(),
  /** The skill's Chinese for the words the task says (its name, its steps' reasons): see inReaderLang. */
  wordsZh: z.record(z.string(), z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  stepCount: z.number().int(),
  question: z.string().optional(),
  /** The site the open question asks access to ("Allow" / "Don't allow"), when it is about a site. */
  askedSite: z.string().optional(),
  /** The MCP client that chooses the steps of a task in mode `mcp`, as it named itself. */
  driver: z.object({ name: z.string(), version: z.string() }).optional(),
  /** The question as a code and the params its words take, for the reader's language (the panel falls back to `question`). */
  questionWords: z.object({ code: z.string().max(64), params: WordParams }).optional(),
  result: TaskResult.optional(),
  /** How the task ended when it did not succeed; `details` fills the reader's words for the code (describeError). */
  error: z.object({ code: z.string(), message: z.string(), details: WordParams.optional() }).optional(),
  /** The task proposes a plan for the person to approve before it runs (StartBody.planFirst). */
  planFirst: z.boolean().optional(),
  /** Its plan, once proposed. */
  plan: TaskPlanView.optional(),
  /** Who started the task, as their token proved: an agent's token sees only the tasks it started. */
  startedBy: Principal.optional(),
  /** The latest answer someone gave the task (a step approved or rejected, a question, the plan, a cancel), and who. */
  lastAnswer: TaskAnswer.optional(),
})
export type TaskView = z.infer<typeof TaskView>

/** A question the task asked the person and the answer they gave, as the panel's timeline shows it between the steps. */
export const TaskExchange = z.object({
  question: z.string(),
  /** The question as a code and params, for the reader's language (the reader falls back to `question`). */
  questionWords: z.object({ code: z.string().max(64), params: WordParams }).optional(),
  /** The site the question asked access to, when it was about a site. */
  site: z.string().optional(),
  answer: z.string(),
  /** For a site question: whether the person allowed the site ("Allow") or refused it ("Don't allow"). */
  siteAccess: z.enum(['allowed', 'refused']).optional(),
  /** When the person answered: the timeline places it after the steps before it. */
  at: z.string(),
})
export type TaskExchange = z.infer<typeof TaskExchange>

/** A screenshot of the audit, by the name `/api/audit/:taskId/artifacts/:name` serves it. */
export const ArtifactLink = z.object({ name: z.string(), label: ArtifactLabel, mark: ArtifactMark.optional() })
export type ArtifactLink = z.infer<typeof ArtifactLink>

/** One finished step of a task's history. */
export const StepView = z.object({
  seq: z.number().int(),
  /** The number a person counts this step by (stepNumbers); absent for the picture taken before asking. */
  number: z.number().int().min(1).optional(),
  actionId: z.string(),
  type: z.string(),
  risk: Risk,
  /** `taken_over`: the person took the task over while the step ran, and it was ended there (TAKEN_OVER): no failure. */
  outcome: z.enum(['done', 'failed', 'rejected', 'taken_over']),
  url: z.string().optional(),
  title: z.string().optional(),
  errors: z.array(ObservationError),
  note: z.string().optional(),
  at: z.string(),
  /** What the step was for: the planner's next goal, or a script step's reason. */
  goal: z.string().optional(),
  /** The element acted on, as a person would name it (its text, label or placeholder). */
  target: z.string().optional(),
  /** What a type step typed; a password or secret is only named ("your password", "{{secret:NAME}}"), never shown. */
  text: z.string().optional(),
  /** The text typed was a password or a secret: `text` names it instead of showing it. */
  sensitive: z.boolean().optional(),
  /** Screenshots taken for this step (before/after/observation). */
  artifacts: z.array(ArtifactLink).optional(),
  /** What the step was expected to leave and did not, on a page that changed otherwise (Observation.unmet). */
  unmet: UnmetEffect.optional(),
  /** Harmless writes the page sent during the step without a question (Observation.harmless). */
  harmless: z.array(HarmlessWrite).max(50).optional(),
})
export type StepView = z.infer<typeof StepView>

/** What the person sees before approving: the page, the element and the latest picture of it. */
export const ConfirmationEvidence = z.object({
  url: z.string().optional(),
  title: z.string().optional(),
  /** The page's origin (scheme, host, port), the "domain" the action happens on. */
  origin: z.string().optional(),
  /** The target element's visible text, label or placeholder. */
  targetText: z.string().optional(),
  /** The newest screenshot of the page as it is before the action runs. */
  screenshot: ArtifactLink.optional(),
  /** For a held write: what the page tries to send (method, site, path, field names, redacted values). */
  requests: z.array(HeldRequest).max(20).optional(),
})
export type ConfirmationEvidence = z.infer<typeof ConfirmationEvidence>

export const PendingConfirmation = z.object({
  actionId: z.string(),
  action: Action,
  risk: Risk,
  reasons: z.array(z.string()),
  /** The same reasons as data, for a reader in another language (describeRiskReason). */
  reasonDetails: z.array(RiskReason).optional(),
  /** What the step is for (the planner's next goal or the script step's reason). */
  goal: z.string().optional(),
  evidence: ConfirmationEvidence.optional(),
})
export type PendingConfirmation = z.infer<typeof PendingConfirmation>

/** How a reported step is listed: one the person's takeover ended is theirs, not a failure of the step or the page. */
export const stepOutcomeOf = (observation: { status: 'done' | 'failed'; errors?: readonly { code: string }[] }): StepView['outcome'] =>
  observation.status === 'failed' && !!observation.errors?.some((e) => e.code === 'TAKEN_OVER') ? 'taken_over' : observation.status
