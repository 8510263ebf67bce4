import { z } from 'zod'
import { Action } from './action'
import { ScriptStep } from './action-form'
import { Observation } from './observation'
import { SkillParameterName, SkillSlug, SkillSummary } from './skills'
import { WriteAllowRule } from './write-allow'
import { AskAlwaysRule } from './harmless-kind'
import { TaskPlan } from './task-plan'
import { FilledText, OneLineText, PersonText } from './text'
import { MAX_ADDRESS_LENGTH, WEB_ADDRESS_RULE, parseWebAddress } from './web-address'
import { PendingConfirmation, StepView, TaskExchange, TaskStatus, TaskView, Usage } from './task'

const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
const reason = PersonText(2000).optional()
/** Where a task starts: the panel's rule (see parseWebAddress), so `https://不是网址` is refused here as there. */
const webAddress = z
  .string()
  .max(MAX_ADDRESS_LENGTH)
  .refine((u) => parseWebAddress(u).ok, `must be ${WEB_ADDRESS_RULE}`)

export const StartBody = z.strictObject({
  goal: FilledText(4000),
  startUrl: webAddress.optional(),
  clientId: id.optional(),
  skill: z.string().min(1).max(128).regex(/^[a-z0-9][a-z0-9-]*$/, 'a skill slug').optional(),
  script: z.array(ScriptStep).min(1).max(1000).optional(),
  /**
   * How a task with a `skill` runs: `script` replays the skill's script with no LLM, `llm` plans with the
   * skill as guidance. Unset: the skill's script when it has one, else the LLM.
   */
  mode: z.enum(['llm', 'script']).optional(),
  /** The skill's parameters (its `{{name}}`s), as the person filled them in for this run. */
  params: z.record(SkillParameterName, PersonText(4000)).optional(),
  /**
   * The planner first proposes a plan in words (steps, sites, what it will send); the task waits (WAITING_PLAN)
   * until the person approves or edits it (`POST /api/agent/plan`), then runs held to it.
   */
  planFirst: z.boolean().optional(),
})
export type StartBody = z.infer<typeof StartBody>
export const StartData = z.object({ taskId: z.string(), status: TaskStatus })

export const NextBody = z.strictObject({
  clientId: id,
  taskId: id.optional(),
  waitMs: z.number().int().min(0).max(20_000).optional(),
})
export type NextBody = z.infer<typeof NextBody>
export const NextData = z.object({ taskId: z.string().nullable(), status: TaskStatus.nullable(), action: Action.nullable() })
export type NextData = z.infer<typeof NextData>

export const ReportBody = z.strictObject({
  taskId: id,
  actionId: id,
  observation: Observation,
  /** Hand over the task's next action with the reply, when one is ready at once (a script's next step): no poll for it. */
  takeNext: z.boolean().optional(),
})
export type ReportBody = z.infer<typeof ReportBody>
export type ReportBodyInput = z.input<typeof ReportBody>
export const ReportData = z.object({
  accepted: z.boolean(),
  duplicate: z.boolean(),
  status: TaskStatus,
  /** With `takeNext`: the task's next action, dispatched to the reporter as `next` would; null when none is ready yet. */
  action: Action.nullable().optional(),
})
export type ReportData = z.infer<typeof ReportData>

export const ConfirmBody = z.strictObject({
  taskId: id,
  actionId: id,
  approved: z.boolean(),
  reason,
  /** For a held write: let this kind of request through on this site from now on. */
  always: z.boolean().optional(),
  /** For a held write: let this kind of request through for the rest of this task only. */
  forTask: z.boolean().optional(),
})
  // One answer gives one scope: a person who ticked both did not say which they meant.
  .refine((body) => !(body.always && body.forTask), { message: 'always and forTask cannot both be true', path: ['forTask'] })
export type ConfirmBody = z.infer<typeof ConfirmBody>

export const AnswerBody = z.strictObject({
  taskId: id,
  answer: FilledText(4000),
  /**
   * For a question about a site Tandem may not act on: `refused` is the person's "Don't allow" — the site is off
   * limits for the rest of the task (refusing where it starts ends it); `allowed` (or nothing) runs the step again.
   */
  siteAccess: z.enum(['allowed', 'refused']).optional(),
})
export type AnswerBody = z.infer<typeof AnswerBody>

/** pause, resume and cancel. */
export const TaskCommandBody = z.strictObject({ taskId: id, reason })
export type TaskCommandBody = z.infer<typeof TaskCommandBody>

export const StatusData = z.object({ status: TaskStatus })

export const TaskIdQuery = z.strictObject({ taskId: id })

export const StatusView = z.object({
  task: TaskView,
  currentAction: Action.nullable(),
  pendingConfirmation: PendingConfirmation.nullable(),
  steps: z.array(StepView),
  usage: Usage,
  /** The planner is working on the next decision (the panel shows "thinking"). */
  thinking: z.boolean().optional(),
  /** The number a person will count the action in flight by (absent for the picture taken before asking). */
  currentNumber: z.number().int().min(1).optional(),
  /** The questions the task asked and the person's answers, oldest first (absent when none was answered). */
  exchanges: z.array(TaskExchange).optional(),
})
export type StatusView = z.infer<typeof StatusView>

export const TasksQuery = z.strictObject({
  status: TaskStatus.optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
})

/** `GET /api/skills/:slug` */
export const SkillParams = z.strictObject({ slug: SkillSlug })

export const SkillsSearchQuery = z.strictObject({
  q: z.string().max(500).default(''),
  site: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
})

/** `GET /api/health`: the whole answer, with no `data`. */
export const HealthReply = z.object({ ok: z.literal(true) })

/** `GET /api/info`: what a client needs after connecting: that its token works, and whether goal-only tasks can run. */
export const InfoData = z.object({
  name: z.literal('tandem'),
  version: z.string(),
  llm: z.object({ configured: z.boolean(), model: z.string().optional(), vision: z.boolean() }),
})
export type InfoData = z.infer<typeof InfoData>

/** Headers every client call carries, so the audit knows who asked. */
export const CLIENT_HEADERS = {
  clientId: 'x-tandem-client',
  version: 'x-tandem-version',
  /** The console names itself, so the audit can say "you, in the console" (under the owner's token only). */
  surface: 'x-tandem-surface',
  traceId: 'x-trace-id',
} as const

/** `POST /api/skills`: a finished task saved as skills/<slug>/SKILL.md (goal, sites, SOP, replayable script). */
export const SaveSkillBody = z.strictObject({
  taskId: id,
  /** Defaults to one made from the name or goal. */
  slug: SkillSlug.optional(),
  name: OneLineText(200).optional(),
  description: FilledText(2000).optional(),
  /** Replace a skill with the same slug instead of answering CONFLICT. */
  overwrite: z.boolean().optional(),
  /** When a skill of the person's has this name (or slug) already, save this one beside it, under a slug of its own. */
  keepBoth: z.boolean().optional(),
})
export type SaveSkillBody = z.infer<typeof SaveSkillBody>
export const SaveSkillData = z.object({ skill: SkillSummary, file: z.string() })
export type SaveSkillData = z.infer<typeof SaveSkillData>

/** `GET /api/clients`: the extensions that have called in, newest first. */
export const ClientView = z.object({
  clientId: z.string(),
  version: z.string().optional(),
  userAgent: z.string().optional(),
  firstSeen: z.string(),
  lastSeen: z.string(),
})
export type ClientView = z.infer<typeof ClientView>

/** `POST /demo/messages`: what the demo page's contact form sends (the server answers and keeps nothing). */
export const DemoMessageBody = z.strictObject({
  name: z.string().max(200),
  email: z.string().max(320),
  topic: z.string().max(100),
  message: z.string().max(4000),
})
export type DemoMessageBody = z.infer<typeof DemoMessageBody>

/** `POST /api/writes/forget`: the person no longer always allows this kind of write. */
export const ForgetWriteBody = WriteAllowRule
export type ForgetWriteBody = z.infer<typeof ForgetWriteBody>

/** `POST /api/writes/ask-always` and `POST /api/writes/ask-always/forget`: one harmless kind on one site. */
export const AskAlwaysBody = AskAlwaysRule
export type AskAlwaysBody = z.infer<typeof AskAlwaysBody>

/**
 * `POST /api/agent/plan`: the person's one answer to a plan-first task's proposed plan. Approved, the task runs
 * held to `plan` when they edited it, else to the proposal; not approved, the task is canceled.
 */
export const PlanBody = z.strictObject({ taskId: id, approved: z.boolean(), plan: TaskPlan.optional(), reason })
export type PlanBody = z.infer<typeof PlanBody>
