import { z } from 'zod'
import { ActionErrorCode } from './errors'
import { HeldRequest } from './held-request'
import { HarmlessWrite } from './harmless-kind'
import { NavigationFailure } from './navigation-failure'

/** One indexed element of the page, as perceived by the content script. */
export const ElementInfo = z.object({
  index: z.number().int().min(0),
  tag: z.string().max(64),
  role: z.string().max(64).optional(),
  text: z.string().max(2000).optional(),
  attributes: z.record(z.string().max(64), z.string().max(2000)).optional(),
  /** Stable digest of what identifies the element; an action aimed at a changed element is refused. */
  fingerprint: z.string().max(128).optional(),
  isNew: z.boolean().optional(),
  /** The element sits inside a form, and what that form looks like (search forms are harmless to submit). */
  form: z
    .object({ role: z.string().max(64).optional(), action: z.string().max(2000).optional(), isSearch: z.boolean().optional(), method: z.string().max(16).optional() })
    .optional(),
  /**
   * Where the element sits, for a button that only says "OK": the title and text of its dialog (short, redacted),
   * or the widget it belongs to ('filter', 'date-picker', 'search'; other values are kept and read as no widget).
   */
  context: z.object({ dialog: z.string().max(500).optional(), within: z.string().max(32).optional() }).optional(),
})
export type ElementInfo = z.infer<typeof ElementInfo>

export const ArtifactLabel = z.enum(['before', 'after', 'observation', 'screenshot'])
export type ArtifactLabel = z.infer<typeof ArtifactLabel>

const fraction = z.number().min(0).max(1)

/**
 * Where the element a step is about sits on its screenshot, as fractions of the picture's width and height: the
 * confirmation card shows the picture cropped around it, the element outlined.
 */
export const ArtifactMark = z.strictObject({ x: fraction, y: fraction, w: fraction, h: fraction })
export type ArtifactMark = z.infer<typeof ArtifactMark>

/** A screenshot as the extension uploads it: base64 image bytes. */
export const ArtifactUpload = z.strictObject({
  label: ArtifactLabel,
  contentType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
  data: z.string().min(1).max(12_000_000),
  mark: ArtifactMark.optional(),
})
export type ArtifactUpload = z.infer<typeof ArtifactUpload>

/** A stored artifact, as the audit refers to it. */
export const ArtifactRef = z.object({
  name: z.string(),
  label: ArtifactLabel,
  contentType: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  mark: ArtifactMark.optional(),
})
export type ArtifactRef = z.infer<typeof ArtifactRef>

export const ObservationError = z.strictObject({
  code: ActionErrorCode,
  message: z.string().max(4000),
  /** For PERMISSION_DENIED: the site the step would have opened, when it is not the page it ran on. */
  origin: z.string().max(2000).optional(),
  /** For NAVIGATION_FAILED: why the page did not come up. */
  details: NavigationFailure.optional(),
  /** For ACTION_NO_EFFECT: what the step should have left on the page, and what was there instead (secrets masked). */
  effect: z.strictObject({ expected: z.string().max(500), found: z.string().max(500) }).optional(),
})
export type ObservationError = z.infer<typeof ObservationError>

/** What a person could see change on a page while a step ran (the page library's watch). */
export const PageChange = z.enum(['dom', 'url', 'focus', 'value', 'selection', 'request'])
export type PageChange = z.infer<typeof PageChange>

/**
 * What a step was expected to leave and did not, on a page that changed otherwise (a cascader's item left its
 * `aria-checked` alone and opened the next column): the step is done, and this is a hint for whoever reads it next.
 */
export const UnmetEffect = z.strictObject({
  expected: z.string().max(500),
  found: z.string().max(500),
  changed: z.array(PageChange).min(1).max(6),
})
export type UnmetEffect = z.infer<typeof UnmetEffect>

export const BarrierMode = z.enum(['held', 'blocked', 'off'])
export type BarrierMode = z.infer<typeof BarrierMode>

/** A write the barrier holds in the browser, waiting for the person: `id` names it for the release. */
export const HeldWrite = z.strictObject({
  id: z.string().min(1).max(200),
  /** Why it counts as a write (classifyRequest's reason). */
  reason: z.string().max(100),
  request: HeldRequest,
})
export type HeldWrite = z.infer<typeof HeldWrite>

/** One of the tabs a task owns (the one it started in and those its pages opened), numbered for the task. */
export const TaskTabView = z.strictObject({
  /** The tab's number within the task (1, 2, ...): stable while the tab lives, never reused. */
  tab: z.number().int().min(1),
  url: z.string().max(8192),
  title: z.string().max(2000),
  /** The tab the task is in now (this observation's page). */
  active: z.boolean(),
  /** The step just run opened this tab, and the task followed it there. */
  opened: z.boolean().optional(),
})
export type TaskTabView = z.infer<typeof TaskTabView>

/**
 * A frame of the page whose content is not in the element tree, and why: its site is not granted, or it is another
 * origin Tandem could not reach (granted, but it refused the content script or did not answer in time). The frames
 * of granted sites that were reached are in the tree, their lines marked `frame="<origin>"`.
 */
export const UnreachedFrame = z.strictObject({
  origin: z.string().max(2000),
  reached: z.literal(false),
  why: z.enum(['not-granted', 'cross-origin']),
})
export type UnreachedFrame = z.infer<typeof UnreachedFrame>

export const Observation = z.strictObject({
  status: z.enum(['done', 'failed']),
  url: z.string().max(8192),
  title: z.string().max(2000).default(''),
  elementTree: z.string().max(2_000_000).default(''),
  elements: z.array(ElementInfo).max(50_000).optional(),
  visibleTextSnippet: z.string().max(200_000).default(''),
  scroll: z
    .strictObject({ y: z.number(), pixelsAbove: z.number(), pixelsBelow: z.number() })
    .optional(),
  extracted: z.unknown().optional(),
  /** The element a script's CSS selector named, as a person reads it (label, text, accessible name): shown on the step. */
  targetName: z.string().max(200).optional(),
  /** The step is done, but what it was expected to leave is not there although the page changed (a hint). */
  unmet: UnmetEffect.optional(),
  artifacts: z.array(ArtifactUpload).max(8).optional(),
  errors: z.array(ObservationError).max(50).default([]),
  timing: z.record(z.string().max(64), z.number()).default({}),
  /**
   * How the task tab's writes are watched: held by the debugger until the person decides (`held`), blocked outright
   * by the fallback (`blocked`), or not at all (the barrier is off). Where they are held, what a step sends decides
   * whether the person is asked, not what its button is called.
   */
  barrier: BarrierMode.optional(),
  /** Writes the page sent while this unapproved step ran, held before they left the browser. */
  held: z.array(HeldWrite).max(20).optional(),
  /**
   * The held writes were sent by the handlers of the step with this id a moment after it was reported (a timer, a
   * debounced save), before this step ran: this step did not run, and runs once the person has decided.
   */
  heldAfter: z.string().min(1).max(128).optional(),
  /** Telemetry the page sent while the step ran, failed in the browser (never asked about). */
  dropped: z.array(HeldRequest).max(50).optional(),
  /** Writes the page sent while the step ran that the person always allows on their site: they went unasked. */
  allowed: z.array(HeldRequest).max(50).optional(),
  /** Harmless writes (analytics, a cart line, a preference, a draft, presence) the step sent: they went on unasked. */
  harmless: z.array(HarmlessWrite).max(50).optional(),
  /** Held writes this step (a release) let go on, and those that were no longer there to let go. */
  released: z.array(HeldWrite).max(20).optional(),
  gone: z.array(HeldWrite).max(20).optional(),
  /** Writes the fallback blocked outright (no debugger to hold them): running the step again sends them. */
  blocked: z.array(HeldWrite).max(20).optional(),
  /** The task's tabs, when it has more than one or the step changed tabs. */
  tabs: z.array(TaskTabView).max(50).optional(),
  /** Frames of the page from other origins, whose elements are not in the tree. */
  frames: z.array(UnreachedFrame).max(10).optional(),
  /** How the step's clicks and keys reached the page: trusted input through the debugger, or DOM events. */
  input: z.enum(['cdp', 'dom']).optional(),
  /**
   * The editing command a pressed key ran (copy, paste, selectAll, undo, moveLeftAndModifySelection…) and how:
   * with the debugger's key event ('cdp'), or by the focused element's editing APIs ('dom').
   */
  command: z.strictObject({ name: z.string().max(64), via: z.enum(['cdp', 'dom']) }).optional(),
  /** How long the page took to settle after the step before it was read, and whether it went still within the bound. */
  settle: z.strictObject({ ms: z.number().min(0).max(600_000), quiet: z.boolean() }).optional(),
})
export type Observation = z.infer<typeof Observation>
export type ObservationInput = z.input<typeof Observation>
