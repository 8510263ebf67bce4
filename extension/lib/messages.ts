import { z } from 'zod'
import { Action, ArtifactMark, BarrierMode, Observation, ObservationError, RedactSettings, TaskStatus, Target, UnmetEffect } from '#protocol'
import { IndicatorState, TakeoverInput } from './indicator/state'
import type { InputGesture as PageInputGesture } from './page/input'

/**
 * Typed messages between the worker, the content script and the panel: every request is one member of a
 * zod discriminated union and every kind has its reply schema, so nobody switches on untyped strings.
 */

/** What the content script reads from the page (the page part of an Observation). */
export const PageState = Observation.pick({
  url: true,
  title: true,
  elementTree: true,
  elements: true,
  visibleTextSnippet: true,
  scroll: true,
})
export type PageState = z.output<typeof PageState>

/** The content script's result of one action, also stored under resultKey(actionId) before it answers. */
export const ActOutcome = z.object({
  actionId: z.string(),
  status: z.enum(['done', 'failed']),
  errors: z.array(ObservationError),
  extracted: z.unknown().optional(),
  /** The element a selector named, as a person reads it (PageActionResult.targetName). */
  targetName: z.string().max(200).optional(),
  unmet: UnmetEffect.optional(),
  /** How its clicks and keys reached the page (trusted through the debugger, or DOM events); absent when it sent none. */
  input: z.enum(['cdp', 'dom']).optional(),
  command: z.object({ name: z.string().max(64), via: z.enum(['cdp', 'dom']) }).optional(),
  /** The page after the action; absent when the page could not be read. */
  page: PageState.optional(),
  /** How long the page took to settle before it was read (absent for actions that change nothing). */
  settle: Observation.shape.settle,
  timing: z.record(z.string(), z.number()),
})
export type ActOutcome = z.output<typeof ActOutcome>

export const ContentRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ping') }),
  /** `settle`: wait for the page to go still first (after a navigation), and say how long that took. */
  z.object({ kind: z.literal('observe'), settle: z.boolean().optional() }),
  z.object({
    kind: z.literal('act'),
    action: Action,
    resultKey: z.templateLiteral(['local:tandem.result.', z.string()]),
    /** The host permissions the person granted (match patterns): the page refuses a step that leaves for any other site. */
    sites: z.array(z.string().max(2000)).max(10_000).optional(),
    /** How the step's writes are watched: where the barrier holds them, the page does not refuse a step for its words. */
    barrier: BarrierMode.optional(),
  }),
  /**
   * Hide password and card fields and card numbers (and emails and phone numbers when `redact` asks) for a
   * screenshot; they come back by themselves if unmask never arrives.
   */
  z.object({
    kind: z.literal('mask'),
    restoreAfterMs: z.number().int().min(100).max(10_000),
    redact: RedactSettings.optional(),
    /**
     * false: answer once the fields are hidden, without waiting for the page to paint them. The debugger's capture
     * renders the page as its DOM is at that moment; what is on screen (captureVisibleTab) needs the paint.
     */
    paint: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('unmask') }),
  /**
   * Ends a running action of a task that was stopped, or that the person took over (`why`); its result says which,
   * so a takeover is never reported as the step's failure.
   */
  z.object({ kind: z.literal('stop'), actionId: z.string(), why: z.enum(['stopped', 'taken-over']).optional() }),
  /** The element a confirmation card is about: brought into view, where it sits on screen and what it says. */
  z.object({ kind: z.literal('locate'), target: Target }),
  /** What the in-page indicator shows as the task moves. */
  z.object({ kind: z.literal('indicator'), state: IndicatorState }),
])
export type ContentRequest = z.output<typeof ContentRequest>
/** Why a running action is ended early: its task was stopped (canceled, finished), or the person took it over. */
export type StopWhy = 'stopped' | 'taken-over'
export type ContentKind = ContentRequest['kind']

export const contentReplies = {
  ping: z.object({ ready: z.literal(true) }),
  observe: PageState.extend({ settle: Observation.shape.settle }),
  act: ActOutcome,
  mask: z.object({ masked: z.boolean() }),
  unmask: z.object({ restored: z.boolean() }),
  stop: z.object({ stopped: z.boolean() }),
  locate: z.object({ name: z.string().max(200).optional(), mark: ArtifactMark.optional() }),
  indicator: z.object({ state: IndicatorState }),
} satisfies Record<ContentKind, z.ZodType>
export type ContentReply<K extends ContentKind> = z.output<(typeof contentReplies)[K]>

/** A content script's failure travels as a value: an exception would lose its message across the channel. */
export const ContentFailure = z.object({ error: z.string() })

/** Content script → worker: the person acted in the task tab, or pressed one of the indicator's buttons. */
export const ContentEvent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('takeover'), input: TakeoverInput }),
  z.object({ kind: z.literal('indicator-command'), command: z.enum(['resume', 'stop']) }),
])
export type ContentEvent = z.output<typeof ContentEvent>
const Point = z.object({ x: z.number().finite(), y: z.number().finite() })
const KeyStroke = z.object({
  key: z.string().min(1).max(32),
  code: z.string().max(32),
  keyCode: z.number().int().min(0).max(255),
  modifiers: z.number().int().min(0).max(15),
  text: z.string().max(4).optional(),
})
/** A gesture the page checked (its target in view, not covered, the step approved if risky), to send as trusted input. */
export const InputGesture = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('click'), at: Point, button: z.enum(['left', 'right']).optional(), count: z.union([z.literal(1), z.literal(2)]).optional() }),
  z.object({ kind: z.literal('hover'), at: Point }),
  z.object({ kind: z.literal('drag'), from: Point, to: Point, html5: z.boolean().optional() }),
  z.object({ kind: z.literal('keys'), keys: z.array(KeyStroke).min(1).max(20) }),
  z.object({ kind: z.literal('text'), text: z.string().min(1).max(20_000) }),
]) satisfies z.ZodType<PageInputGesture>

/** Content script → worker, while the step `actionId` runs in its tab: send this gesture through the debugger. */
export const InputRequest = z.object({ kind: z.literal('input'), actionId: z.string().min(1).max(200), gesture: InputGesture })
export type InputRequest = z.output<typeof InputRequest>
/** `sent: false`: nothing was sent (no debugger for the tab), the page uses DOM events; `error`: it broke off halfway. */
export const InputReply = z.union([z.object({ sent: z.boolean() }), z.object({ error: z.string() })])
export type InputReply = z.output<typeof InputReply>

/** Every content event is answered with what the indicator should show now. */
export const ContentEventReply = z.object({ state: IndicatorState })
export type ContentEventReply = z.output<typeof ContentEventReply>

/** Panel → worker. */
export const WorkerRequest = z.discriminatedUnion('kind', [
  /** Pull work now; `force` ignores the back-off (the person clicked). */
  z.object({ kind: z.literal('wake'), force: z.boolean().default(false) }),
  /** A task is about to start "in the current tab": its first step waits for the use-tab that follows. */
  z.object({ kind: z.literal('tab-coming'), tabId: z.number().int().min(0) }),
  /** A task started "in the current tab": the tab the person was looking at becomes the task's tab. */
  z.object({ kind: z.literal('use-tab'), taskId: z.string().min(1).max(128), tabId: z.number().int().min(0) }),
  /**
   * The person paused, resumed or canceled a task in the panel: the worker follows its new status now (the page's
   * indicator, the badge) and, when it ended, ends the step running in the page.
   */
  z.object({ kind: z.literal('task-changed'), taskId: z.string().min(1).max(128) }),
])
export type WorkerRequest = z.input<typeof WorkerRequest>
export const workerReplies = {
  wake: z.object({ ok: z.literal(true) }),
  'tab-coming': z.object({ ok: z.literal(true) }),
  'use-tab': z.object({ adopted: z.boolean() }),
  'task-changed': z.object({ status: TaskStatus.nullable(), stopped: z.boolean() }),
} satisfies Record<WorkerRequest['kind'], z.ZodType>
