import type { Action, AuditEvent, ElementInfo, Risk, ScriptStep, StepView } from '#protocol'
import { actionSpec, cutText, isCredentialField, isEvidenceStep, needsTarget, parseAuditEvent, shortenText, stepNumbers, targetWords } from '#protocol'
import { REDACTED } from '../privacy/redact'
import { replayTargetOf, type ReplayTarget } from './replay-target'

/** One step of a finished task, made replayable. */
export interface RecordedStep {
  step: ScriptStep
  risk: Risk
  /** The step in words, for the SOP and the risky-steps list. */
  words: string
  host?: string
  /** The secrets ({{secret:NAME}}) a replay fills this step with. */
  secrets?: { name: string; field: string }[]
  /** What the person typed here, now the `{{name}}` they fill in at each run; `value` is never written. */
  parameter?: { name: string; label: string; value: string }
}

const HAS_SECRET = /\{\{\s*secret:[A-Za-z0-9_]+\s*\}\}/
const SECRETS = /\{\{\s*secret:([A-Za-z0-9_]+)\s*\}\}/g
const hostOf = (url: string | undefined) => {
  try {
    return url && /^https?:/.test(url) ? new URL(url).hostname : undefined
  } catch {
    return undefined
  }
}
const str = (v: unknown) => (typeof v === 'string' && v.length ? v : undefined)
const oneLine = (s: string, max = 120) => shortenText(s.replace(/\s+/g, ' ').trim(), max)
const upperSnake = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')

/** A secret's name from the site and the field: SHOP_PASSWORD for the password field on shop.example. */
export function secretNameFor(element: ElementInfo | undefined, selector: string | undefined, host: string | undefined): string {
  const a = element?.attributes ?? {}
  const field =
    upperSnake(a.name ?? '') || upperSnake(a.autocomplete ?? '') || upperSnake(a.id ?? '') ||
    upperSnake(a.type ?? '') || upperSnake(/password|otp|cvv|cvc|card/i.exec(selector ?? '')?.[0] ?? '') || 'SECRET'
  const site = host?.replace(/^www\./, '').split('.')[0] ?? ''
  const prefix = /^[a-z][a-z0-9-]*$/i.test(site) ? upperSnake(site) : ''
  return (prefix && !field.startsWith(prefix) ? `${prefix}_${field}` : field).slice(0, 64)
}

const lowerSnake = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^[^a-z]+|_+$/g, '').slice(0, 40)

/** A parameter's name from the field: `email` for <input name=email>, `full_name` for "Full name". */
function parameterNameFor(element: ElementInfo | undefined, label: string | undefined): string {
  const a = element?.attributes ?? {}
  for (const v of [a.name, a.autocomplete, a.id, a['aria-label'], a.placeholder, label]) {
    const name = lowerSnake(v ?? '')
    if (name && name !== 'on' && name !== 'off') return name
  }
  return 'value'
}

/** Names each typed value once: the same value typed twice is one parameter, two values in one field are two. */
function createParameters() {
  const byValue = new Map<string, string>()
  const used = new Set<string>()
  return (value: string, element: ElementInfo | undefined, label: string | undefined) => {
    const known = byValue.get(value)
    if (known) return known
    const base = parameterNameFor(element, label)
    let name = base
    for (let n = 2; used.has(name); n++) name = `${base.slice(0, 36)}_${n}`
    used.add(name)
    byValue.set(value, name)
    return name
  }
}

interface Proposed {
  action: Action
  element?: ElementInfo
  /** The person approved this step: asked before it ran, or what it sent held until they let it go. */
  approved?: true
}

/**
 * The proposed action and the element the risk gate judged, for each action id of the audit, and whether the
 * person approved it. A step the barrier watched ran unasked whatever its words, so only an approval tells which
 * steps a replay must ask about again.
 */
export function proposedActions(events: AuditEvent[]): Map<string, Proposed> {
  const out = new Map<string, Proposed>()
  /** Each release and the step whose held writes it lets go. */
  const releaseOf = new Map<string, string>()
  for (const raw of events) {
    // An action the audit cannot read is not replayed: recordSteps then names the step it cannot describe.
    const e = parseAuditEvent(raw)
    if (e.type === 'confirmation.answered' && e.data.approved && e.actionId) {
      const found = out.get(releaseOf.get(e.actionId) ?? e.actionId)
      if (found) found.approved = true
      continue
    }
    if (e.type !== 'action.proposed' || e.data.evidence === true) continue
    const { action, element } = e.data
    // A release is the person letting a held request go, not a step a replay takes.
    if (action.type === 'release') releaseOf.set(e.actionId, String(action.params.after ?? ''))
    else out.set(e.actionId, { action, ...(element ? { element } : {}) })
  }
  return out
}

const quoted = (s: string) => `“${oneLine(s, 80)}”`

function describe(step: ScriptStep, name: string | undefined, host: string | undefined): string {
  const on = host ? ` on ${host}` : ''
  const what = name ? quoted(name) : 'the element'
  switch (step.type) {
    case 'navigate':
      return `Open ${step.url}`
    case 'click':
      return `Click ${what}${on}`
    case 'double_click':
      return `Double-click ${what}${on}`
    case 'right_click':
      return `Right-click ${what}${on}`
    case 'type':
      return `Type ${quoted(step.text)} into ${what}${on}${step.submit ? ' and submit' : ''}`
    case 'select':
      return `Choose ${quoted(step.option)} in ${what}${on}`
    case 'press':
      return `Press ${step.keys}${on}`
    case 'scroll':
      return `Scroll ${step.direction}${name ? ` in ${what}` : ''}${on}`
    case 'waitFor':
      return `Wait for ${step.text ? quoted(step.text) : step.urlIncludes ? `the address to contain ${quoted(step.urlIncludes)}` : step.selector ? `\`${step.selector}\`` : 'the page'}`
    case 'extract':
      return `Extract: ${oneLine(step.instruction)}`
    case 'back':
      return 'Go back'
    default:
      return step.type
  }
}

/**
 * The steps of a finished task that succeeded, in order, as script steps a replay can run: targets by selector
 * or text (never by index), credentials as {{secret:NAME}}, steps the person approved marked high. The picture taken
 * before a confirmation, observations and screenshots are left out. Throws when a step's element cannot be named.
 */
export function recordSteps(steps: StepView[], proposed: Map<string, Proposed>): RecordedStep[] {
  const out: RecordedStep[] = []
  const parameterOf = createParameters()
  // A step is named by the number the person saw beside it in the timeline.
  const numbers = stepNumbers(steps)
  for (const [i, view] of steps.entries()) {
    if (view.outcome !== 'done' || isEvidenceStep(view) || view.type === 'observe' || view.type === 'screenshot') continue
    const found = proposed.get(view.actionId)
    if (!found) continue
    const { action, element, approved } = found
    const p = action.params
    const host = hostOf(view.url)
    const spec = actionSpec(action.type)
    // A step whose text is what it types cannot be found again by that text.
    const where = spec && spec.target !== 'none' ? replayTargetOf(action.target, element, !spec.textNamesTarget) : undefined
    if (needsTarget(action.type) && !where) {
      throw new UnreplayableStep(`step ${numbers[i] ?? view.seq} (${action.type}) aimed at an element the audit did not describe`)
    }
    // What the person approved is declared high, so its replay asks first; a step whose words alone sounded risky
    // is left to the barrier again, as it was when it ran.
    const risk: Risk = approved ? 'high' : action.risk === 'high' ? 'medium' : action.risk
    const extras = { ...(view.goal ? { reason: cutText(view.goal, 2000) } : {}), ...(approved ? { risk: 'high' as const } : {}) }
    const secrets: NonNullable<RecordedStep['secrets']> = []
    let parameter: RecordedStep['parameter']
    let step: Record<string, unknown>
    switch (action.type) {
      case 'navigate':
        step = { type: 'navigate', url: String(p.url) }
        break
      case 'type': {
        let text = String(p.text ?? '')
        const selector = where && 'selector' in where ? where.selector : undefined
        const sensitive = p.sensitive === true || text.includes(REDACTED) || isCredentialField(element)
        if (sensitive && !HAS_SECRET.test(text)) text = `{{secret:${secretNameFor(element, selector, host)}}}`
        for (const [, name] of text.matchAll(SECRETS)) secrets.push({ name: name.toUpperCase(), field: view.target ?? selector ?? 'the field' })
        // Anything else typed is the person's own (a name, an address, a query): asked for again at each run.
        if (!sensitive && text.trim() && !HAS_SECRET.test(text) && !/\{\{[a-z][a-z0-9_]*\}\}/.test(text)) {
          const label = oneLine(view.target ?? element?.attributes?.placeholder ?? element?.attributes?.name ?? 'Text', 200)
          const name = parameterOf(text, element, view.target)
          parameter = { name, label, value: text }
          text = `{{${name}}}`
        }
        step = { type: 'type', ...where, text, ...(p.submit === true ? { submit: true } : {}), ...(p.clear === true ? { clear: true } : {}) }
        break
      }
      case 'click':
      case 'double_click':
      case 'right_click':
        step = { type: action.type, ...where }
        break
      case 'select':
        step = { type: 'select', ...where, option: String(p.option) }
        break
      case 'press':
        step = { type: 'press', keys: String(p.keys) }
        break
      case 'scroll':
        step = { type: 'scroll', direction: p.direction === 'up' ? 'up' : 'down', ...(typeof p.amount === 'number' ? { amount: p.amount } : {}), ...where }
        break
      case 'waitFor':
        step = {
          type: 'waitFor',
          ...(str(p.text) ? { text: p.text } : {}),
          ...(str(p.urlIncludes) ? { urlIncludes: p.urlIncludes } : {}),
          ...(str(p.selector) ? { selector: p.selector } : {}),
          ...(typeof p.timeoutMs === 'number' ? { timeoutMs: p.timeoutMs } : {}),
        }
        break
      case 'extract':
        step = { type: 'extract', instruction: String(p.instruction), ...(p.schema && typeof p.schema === 'object' ? { schema: p.schema } : {}) }
        break
      case 'back':
        step = { type: 'back' }
        break
      default:
        continue
    }
    const script = { ...step, ...extras } as ScriptStep
    out.push({ step: script, risk, words: describe(script, view.target ?? nameOf(where), host), ...(host ? { host } : {}), ...(secrets.length ? { secrets } : {}), ...(parameter ? { parameter } : {}) })
  }
  return out
}

// What a person would call the element: a role target's name without its role, never a selector (`#send`).
const nameOf = (where: ReplayTarget | undefined) =>
  !where || 'selector' in where ? undefined : 'text' in where ? where.text : targetWords(where.target)

/** A step of the task cannot be replayed: the audit does not say which element it acted on. */
export class UnreplayableStep extends Error {}
