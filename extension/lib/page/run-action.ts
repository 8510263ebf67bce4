import { Action, readParams } from '../../../protocol/action'
import type { BarrierMode } from '../../../protocol/observation'
import { redactSensitiveText } from '../../../protocol/sensitive-text'
import { needsTarget, runsInPage, type ActionTypeIn } from '../../../protocol/action-registry'
import { clickElement } from './actions/click'
import { doubleClickElement } from './actions/double-click'
import { dragElement } from './actions/drag'
import { hoverElement } from './actions/hover'
import { extractText } from './actions/extract'
import { pressKeys } from './actions/press'
import { rightClickElement } from './actions/right-click'
import { scrollBy } from './actions/scroll'
import { selectOption } from './actions/select-option'
import { typeText } from './actions/type-text'
import { uploadFile } from './actions/upload-file'
import { waitForCondition } from './actions/wait-for'
import { PageActionError, fail } from './errors'
import { watchPageChanges } from './page-changes'
import { createPageInput, type PageInput, type TrustedInput } from './input'
import type { PageMemory } from './memory'
import { resolveTarget } from './resolve-target'
import { readableName } from './readable-name'
import type { RiskGate, RiskRules } from './risk-gate'
import { createRedactor } from './sensitive'
import type { PageActionResult } from './types'

export interface RunActionOptions {
  /** Secret values typed by the caller: masked in anything this returns. */
  redactValues?: string[]
  /** Risk rules for the in-page check (defaults to the built-in ones). */
  rules?: RiskRules
  /** How the step's writes are watched (see RiskGate): where the barrier holds them, effects decide. */
  barrier?: BarrierMode
  /** Match patterns of the sites the person granted: a link or form that would leave for another site is refused. */
  sites?: readonly string[]
  /** Cap on extracted text in characters. Default 100,000. */
  extractLimit?: number
  /** waitFor's timeout when the action gives none. Default 5,000 ms. */
  waitTimeoutMs?: number
  /** Sends clicks and keys as trusted input (the extension's debugger); without it, or when it cannot, DOM events. */
  input?: TrustedInput
}


async function perform(
  win: Window,
  action: Action,
  memory: PageMemory,
  opts: RunActionOptions,
  input: PageInput,
  named: (name: string) => void,
  found: (el: Element | null) => void,
): Promise<unknown> {
  if (!runsInPage(action.type)) fail('ACTION_FAILED', `"${action.type}" is done by the extension's background, not in the page`)
  const read = readParams(action)
  if (!read.ok) fail('ACTION_FAILED', `bad params for ${action.type}: ${read.problem}`)
  const typed = read.action
  if (needsTarget(typed.type) && !typed.target) fail('TARGET_NOT_FOUND', `${typed.type} needs a target element`)
  const el = typed.target ? resolveTarget(win, typed.target, memory) : null
  found(el)
  const redact = createRedactor(opts.redactValues)
  if (el && typed.target?.by === 'selector') {
    const name = readableName(el, redact)
    if (name) named(name)
  }

  const gate: RiskGate = { ...(opts.rules ? { rules: opts.rules } : {}), ...(opts.barrier ? { barrier: opts.barrier } : {}) }
  switch (typed.type) {
    case 'click':
      return clickElement(win, action, el!, input, gate, opts.sites)
    case 'double_click':
      return doubleClickElement(win, action, el!, input, gate, opts.sites)
    case 'right_click':
      return rightClickElement(win, action, el!, input, gate)
    case 'type':
      return typeText(win, action, el!, typed.params, input, gate, opts.sites)
    case 'select':
      return selectOption(win, action, el!, typed.params.option, gate)
    case 'press':
      return pressKeys(win, action, el, typed.params.keys, input, gate, opts.sites)
    case 'hover':
      return hoverElement(win, action, el!, input, gate)
    case 'drag':
      return dragElement(win, action, el!, resolveTarget(win, { by: 'index', value: typed.params.to }, memory), input, gate)
    case 'scroll':
      return scrollBy(win, el, typed.params.direction, typed.params.amount)
    case 'waitFor':
      return waitForCondition(win, typed.params, opts.waitTimeoutMs)
    case 'upload':
      return uploadFile(win, action, el!, typed.params, gate)
    case 'extract':
      return extractText(win, redact, opts.extractLimit ?? 100_000, typed.params.instruction)
    default: {
      // Refused above; a new in-page action fails to compile here until it has its case.
      const inWorker: ActionTypeIn<'worker'> = typed.type
      return fail('ACTION_FAILED', `"${inWorker}" is done by the extension's background, not in the page`)
    }
  }
}

/**
 * Runs one action in the page and reports what happened; it never throws. Refusals (stale index, covered
 * element, missing confirmation) come back as `failed` with a protocol error code and nothing done.
 */
export async function runPageAction(win: Window, action: Action, memory: PageMemory, opts: RunActionOptions = {}): Promise<PageActionResult> {
  const checked = Action.safeParse(action)
  if (!checked.success) return { status: 'failed', errors: [{ code: 'ACTION_FAILED', message: 'the action is malformed' }] }
  // A refused step names its element too: the person reads what it was about.
  let targetName: string | undefined
  let target: Element | null = null
  const input = createPageInput(opts.input)
  const named = () => {
    const used = input.used()
    const command = input.command()
    return { ...(targetName ? { targetName } : {}), ...(used ? { input: used } : {}), ...(command ? { command } : {}) }
  }
  const watch = watchPageChanges(win)
  try {
    const extracted = await perform(win, checked.data, memory, opts, input, (name) => (targetName = name), (el) => (target = el))
    return extracted === undefined ? { status: 'done', errors: [], ...named() } : { status: 'done', errors: [], extracted, ...named() }
  } catch (error) {
    if (error instanceof PageActionError) {
      // A no-effect step quotes what it typed and found: masked as the page's text is (secrets, card numbers, and
      // emails and phone numbers when the task asks).
      const secrets = createRedactor(opts.redactValues)
      const hide = (text: string) => redactSensitiveText(secrets(text), checked.data.redact ?? {})
      const effect = error.effect ? { expected: hide(error.effect.expected), found: hide(error.effect.found) } : undefined
      // One attribute that stayed put is no proof that nothing happened: with anything else changed, the step did
      // something, and what it was expected to leave goes with it as a hint.
      const changed = error.code === 'ACTION_NO_EFFECT' && effect ? watch.changes(target) : []
      if (effect && changed.length) return { status: 'done', errors: [], unmet: { ...effect, changed }, ...named() }
      return { status: 'failed', errors: [{ code: error.code, message: hide(error.message), ...(error.origin ? { origin: error.origin } : {}), ...(effect ? { effect } : {}) }], ...named() }
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return { status: 'failed', errors: [{ code: 'ACTION_FAILED', message: createRedactor(opts.redactValues)(message).slice(0, 2000) }], ...named() }
  } finally {
    watch.stop()
  }
}
