import { z } from 'zod'
import { Action, Risk } from './action'
import type { AuditEvent } from './audit'
import { HeldRequest } from './held-request'
import { HarmlessKind } from './harmless-kind'
import { ArtifactRef, ObservationError, UnmetEffect } from './observation'
import { RiskReason } from './risk-reasons'
import { AllowScope, WriteAllowRule } from './write-allow'
import { TaskPlan } from './task-plan'
import { ConfirmationEvidence, TaskResult, TaskStatus, Usage, WordParams } from './task'
import { Principal } from './principal'

/**
 * The `data` of each audit event type, as the server writes it. The envelope (`AuditEvent` in audit.ts) stays
 * a string type and a record on disk, so every audit ever written still verifies; these schemas are how code
 * reads and writes the data. Data objects keep keys they do not name (an older or newer writer may add some):
 * a reader ignores them, a writer cannot add them by mistake (its type is the strict input of the same shape).
 */

/** Who made the request behind an event (server/lib/http/source.ts). */
export const AuditSource = z.object({
  clientId: z.string().optional(),
  version: z.string().optional(),
  userAgent: z.string().optional(),
  traceId: z.string().optional(),
  /** The MCP client behind the request, as it named itself when it connected (initialize's clientInfo). */
  mcp: z.object({ name: z.string(), version: z.string() }).optional(),
  /** What the request's token proved it to be (protocol/principal.ts): the audit's answer to "who did it". */
  principal: Principal.optional().catch(undefined),
})

// Forms come from a script or the model and were checked by their own schemas when they were planned; the
// audit only keeps them, so it asks no more of them than a type.
const PlannedForm = z.looseObject({ type: z.string() })

// The element the risk gate judged. When the observation had no element list it is read back from a tree line
// and never checked against ElementInfo's bounds, so none are asked here.
const JudgedElement = z.looseObject({
  index: z.number(),
  tag: z.string(),
  role: z.string().optional(),
  text: z.string().optional(),
  attributes: z.record(z.string(), z.string()).optional(),
  fingerprint: z.string().optional(),
  isNew: z.boolean().optional(),
  form: z.object({ role: z.string().optional(), action: z.string().optional(), isSearch: z.boolean().optional() }).optional(),
})

export const PlannerDecision = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('act'), actions: z.array(PlannedForm) }),
  z.looseObject({ kind: z.literal('done'), success: z.boolean(), text: z.string(), data: z.unknown().optional(), code: z.string().optional(), params: WordParams.optional() }),
  z.looseObject({ kind: z.literal('ask'), question: z.string() }),
  z.looseObject({ kind: z.literal('fail'), code: z.string(), message: z.string(), details: WordParams.optional() }),
  z.looseObject({ kind: z.literal('plan'), plan: z.looseObject({}) }),
])

/** What a planner adds to its decision's audit event (the LLM planner: model, calls, prompt size, its answer). */
export const PlannerAuditShape = {
  model: z.string().optional(),
  step: z.number().optional(),
  failures: z.number().optional(),
  calls: z.array(z.looseObject({ model: z.string(), latencyMs: z.number() })).optional(),
  reason: z.string().optional(),
  promptTokensEstimate: z.number().optional(),
  treeTokensEstimate: z.number().optional(),
  compaction: z.number().optional(),
  error: z.string().optional(),
  rawOutput: z.string().optional(),
  output: z.looseObject({ thinking: z.string().optional(), next_goal: z.string().optional() }).optional(),
  repaired: z.boolean().optional(),
  /** Who decided, when it was not Tandem's own planner (an outside agent over MCP). */
  source: AuditSource.optional(),
}
export type PlannerAudit = z.input<z.ZodObject<typeof PlannerAuditShape>>

const reasons = z.array(z.string())
// Extras beside the record a reader can do without: one it cannot read (a reason code from a newer version) is
// dropped, and the event is still read.
const reasonDetails = z.array(RiskReason).optional().catch(undefined)

function event<T extends string, S extends z.ZodRawShape, A extends z.ZodType>(type: T, data: S, actionId: A) {
  return z.object({ type: z.literal(type), actionId, data: z.looseObject(data) })
}
/** An event about the task as a whole. */
const taskEvent = <T extends string, S extends z.ZodRawShape>(type: T, data: S) => event(type, data, z.string().optional())
/** An event about one action: the envelope's actionId names it. */
const actionEvent = <T extends string, S extends z.ZodRawShape>(type: T, data: S) => event(type, data, z.string())

export const AuditEventSchemas = [
  taskEvent('task.created', {
    goal: z.string(),
    mode: z.enum(['script', 'llm', 'mcp']),
    startUrl: z.string().optional(),
    skill: z.string().optional(),
    skillName: z.string().optional(),
    wordsZh: z.record(z.string(), z.string()).optional().catch(undefined),
    clientId: z.string().optional(),
    scriptSteps: z.number().optional(),
    source: AuditSource,
    planFirst: z.boolean().optional(),
  }),
  taskEvent('task.bound', { clientId: z.string() }),
  taskEvent('task.status', { from: TaskStatus, to: TaskStatus, reason: z.string().optional() }),
  taskEvent('planner.decision', {
    planner: z.string(),
    decision: PlannerDecision,
    usage: Usage.partial().optional().catch(undefined),
    ...PlannerAuditShape,
  }),
  actionEvent('action.proposed', {
    action: Action,
    risk: Risk,
    reasons,
    reasonDetails,
    goal: z.string().optional(),
    targetText: z.string().optional(),
    element: JudgedElement.optional().catch(undefined),
    /** The picture taken for a confirmation card, and the action it is taken for. */
    evidence: z.literal(true).optional(),
    before: z.looseObject({ type: z.string(), risk: Risk, reasons }).optional(),
  }),
  actionEvent('confirmation.requested', {
    risk: Risk,
    reasons,
    reasonDetails,
    goal: z.string().optional(),
    targetText: z.string().optional(),
    evidence: ConfirmationEvidence.optional().catch(undefined),
  }),
  actionEvent('confirmation.answered', {
    approved: z.boolean(),
    reason: z.string().optional(),
    by: z.string(),
    at: z.string(),
    source: AuditSource,
    /** Approved with "always allow this on this site": these kinds of write go through from now on. */
    always: z.boolean().optional(),
    /** Approved with "allow requests like this for the rest of this task": they go through in this task only. */
    forTask: z.boolean().optional(),
    allowWrites: z.array(WriteAllowRule).optional().catch(undefined),
    /** How long `allowWrites` last (absent in an audit written before task rules: `site`). */
    scope: AllowScope.optional().catch(undefined),
  }),
  actionEvent('action.dispatched', { source: AuditSource }),
  actionEvent('report.received', { source: AuditSource }),
  actionEvent('observation', {
    status: z.enum(['done', 'failed']),
    url: z.string(),
    title: z.string(),
    errors: z.array(ObservationError),
    extracted: z.unknown().optional(),
    targetName: z.string().optional(),
    /** Done, though what it was expected to leave is not there: the page changed otherwise (Observation.unmet). */
    unmet: UnmetEffect.optional().catch(undefined),
    artifacts: z.array(ArtifactRef),
    timing: z.record(z.string(), z.number()),
    scroll: z.looseObject({ y: z.number(), pixelsAbove: z.number(), pixelsBelow: z.number() }).optional().catch(undefined),
    /** How long the page took to settle before it was read, and whether it went still within the bound. */
    settle: z.looseObject({ ms: z.number(), quiet: z.boolean() }).optional().catch(undefined),
    elementCount: z.number(),
    treeChars: z.number(),
    /** How the step's clicks and keys reached the page (Observation.input). */
    input: z.enum(['cdp', 'dom']).optional(),
    /** The editing command a pressed key ran, and how (Observation.command). */
    command: z.looseObject({ name: z.string(), via: z.enum(['cdp', 'dom']) }).optional().catch(undefined),
  }),
  taskEvent('queue.dropped', { reason: z.string(), dropped: z.array(PlannedForm) }),
  taskEvent('user.asked', { question: z.string(), reason: z.string().optional() }),
  taskEvent('user.answered', { question: z.string().optional(), answer: z.string(), source: AuditSource }),
  taskEvent('task.paused', { from: TaskStatus, reason: z.string().optional(), source: AuditSource }),
  taskEvent('task.resumed', { to: TaskStatus, reason: z.string().optional(), source: AuditSource }),
  taskEvent('task.canceled', { reason: z.string().optional(), source: AuditSource }),
  taskEvent('task.finished', {
    status: TaskStatus,
    result: TaskResult.optional(),
    error: z.looseObject({ code: z.string(), message: z.string(), details: WordParams.optional() }).optional(),
  }),
  /** The log itself: a torn last line (a crash mid-write) was cut off before the next append. */
  taskEvent('audit.recovered', { discardedBytes: z.number(), discardedSha256: z.string(), cause: z.string() }),
  /** The write barrier held a request the page sent during a step the person had not approved. */
  taskEvent('write.held', { request: HeldRequest, reason: z.string(), tabId: z.number().optional(), stepActionId: z.string().optional() }),
  /** The person approved it: the very same request went on. */
  taskEvent('write.released', { request: HeldRequest, by: z.string(), at: z.string() }),
  /** It was failed in the browser and never reached the site. */
  taskEvent('write.refused', {
    request: HeldRequest,
    why: z.enum(['rejected', 'canceled', 'paused', 'ended', 'lost', 'blocked']),
    by: z.string().optional(),
  }),
  /** Sent during an agent step without asking: the person always allows this kind of write on its site. */
  taskEvent('write.allowed', {
    request: HeldRequest,
    /** The rule that let it through, and whether the site's or the task's (absent in an older audit). */
    rule: WriteAllowRule.optional().catch(undefined),
    scope: AllowScope.optional().catch(undefined),
  }),
  /** Telemetry sent during an agent step, dropped without asking. */
  taskEvent('write.dropped', { request: HeldRequest, reason: z.string() }),
  /** A harmless write (analytics, a cart line, a preference, a draft, presence) sent during an agent step unasked. */
  taskEvent('write.harmless', { request: HeldRequest, kind: HarmlessKind }),
  /** A plan-first task's planner proposed its plan; the task waits for the person. */
  taskEvent('plan.proposed', { plan: TaskPlan }),
  /** The person answered the plan: approved as proposed, approved as they edited it (`plan`), or not approved. */
  taskEvent('plan.answered', {
    approved: z.boolean(),
    edited: z.boolean().optional(),
    plan: TaskPlan.optional(),
    reason: z.string().optional(),
    by: z.string(),
    at: z.string(),
    source: AuditSource,
  }),
] as const

/** The type, actionId and data of every audit event the server writes, one member per type. */
export const KnownAuditEventBody = z.discriminatedUnion('type', AuditEventSchemas)
export type KnownAuditEventBody = z.infer<typeof KnownAuditEventBody>
export type AuditEventType = KnownAuditEventBody['type']
export const AUDIT_EVENT_TYPES: readonly AuditEventType[] = AuditEventSchemas.map((s) => s.shape.type.value)

type Schema = (typeof AuditEventSchemas)[number]
/** What a writer hands the log: the data's input type, without the extra keys a reader tolerates. */
type Written<S> = S extends z.ZodObject<infer Shape>
  ? Shape extends { type: z.ZodLiteral<infer T>; actionId: infer A extends z.ZodType; data: z.ZodObject<infer D> }
    ? { type: T; data: z.input<z.ZodObject<D>> } & (undefined extends z.input<A> ? { actionId?: string } : { actionId: string })
    : never
  : never
export type AuditEventWrite = Schema extends infer S ? (S extends Schema ? Written<S> : never) : never

/** A parsed event: the envelope with its data typed by its type. */
export type KnownAuditEvent = Omit<AuditEvent, 'type' | 'actionId' | 'data'> & KnownAuditEventBody
/** An event of a type this version does not know, or of a known type whose data does not have its shape. */
export interface UnknownAuditEvent {
  type: 'unknown'
  event: AuditEvent
  /** Set when the type is known and the data is not what it should be: what is wrong, first problem only. */
  problem?: string
}
export type ParsedAuditEvent = KnownAuditEvent | UnknownAuditEvent

const known = new Set<string>(AUDIT_EVENT_TYPES)

/**
 * Reads one audit event by its type. Never throws: an unknown type or a malformed one comes back as `unknown`
 * with the event untouched, so a reader can show it as such instead of failing the whole audit.
 */
export function parseAuditEvent(event: AuditEvent): ParsedAuditEvent {
  if (!known.has(event.type)) return { type: 'unknown', event }
  const parsed = KnownAuditEventBody.safeParse({ type: event.type, actionId: event.actionId, data: event.data })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return { type: 'unknown', event, problem: issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'malformed' }
  }
  const { seq, ts, taskId, prevHash, hash } = event
  const { actionId, ...body } = parsed.data
  return { seq, ts, taskId, ...(actionId === undefined ? {} : { actionId }), ...body, prevHash, hash } as KnownAuditEvent
}
