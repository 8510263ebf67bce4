import type { Action } from '../../../protocol/action'
import { asksFirst } from '../../../protocol/asks-first'
import type { BarrierMode } from '../../../protocol/observation'
import { classifyRisk } from '../../../protocol/risk-rules'
import { targetWords } from '../../../protocol/target-words'
import { describeElement } from './describe'
import { fail } from './errors'
import { defaultButtonOf, isSearchForm } from './form-context'

export type RiskRules = Parameters<typeof classifyRisk>[1]

/** What the in-page check goes by besides the element: the rules, and how the step's writes are watched. */
export interface RiskGate {
  rules?: RiskRules
  /** 'held': the write barrier holds what the step sends, so its effects decide (asksFirst). Absent: its words do. */
  barrier?: BarrierMode
}
type RiskSubject = Parameters<typeof classifyRisk>[0]

function elementSubject(el: Element): NonNullable<RiskSubject['element']> {
  const d = describeElement(el)
  return {
    tag: d.tag,
    ...(d.role ? { role: d.role } : {}),
    ...(d.text ? { text: d.text } : {}),
    attributes: d.attributes,
    ...(d.form ? { form: d.form } : {}),
    ...(d.context ? { context: d.context } : {}),
  }
}

/**
 * Defence in depth: the server already decided, but the page is what it is now. Classify the real element with
 * the same rules and refuse, before touching anything, a step without confirmation that asksFirst would ask about.
 * `submits` is the form this step would submit (Enter in a field, type with submit): submitting a form that is
 * not a search counts as a submit, which is always high where the barrier does not hold what it posts.
 */
export function assertConfirmedIfRisky(
  win: Window,
  action: Action,
  element: Element | null,
  opts: RiskGate & { submits?: HTMLFormElement | null; dropTarget?: Element } = {},
): void {
  if (action.confirmation?.approved === true) return
  const reasons: string[] = []
  let high = false
  if (action.requiresConfirmation) {
    high = true
    reasons.push('the server marked this step for confirmation')
  }
  const target = action.target
  const subject: RiskSubject = {
    actionType: action.type,
    params: action.params,
    ...(element ? { element: elementSubject(element) } : {}),
    ...(opts.dropTarget ? { dropTarget: elementSubject(opts.dropTarget) } : {}),
    ...(target?.by === 'selector' ? { selector: target.value } : {}),
    // The real element's own label says more than the words the target was found by (and would repeat them).
    ...(!element && targetWords(target) ? { targetText: targetWords(target) } : {}),
    url: win.location.href,
    declared: action.risk,
  }
  const assessed = classifyRisk(subject, opts.rules)
  if (asksFirst(assessed, opts.barrier)) {
    high = true
    reasons.push(...assessed.reasons)
  }
  const form = opts.submits
  // A form that says it submits by GET asks for a page: its address is judged with the button and by the barrier,
  // which holds a post too.
  if (form && opts.barrier !== 'held' && !isSearchForm(form) && form.getAttribute('method')?.trim().toLowerCase() !== 'get') {
    high = true
    reasons.push('submits a form')
    const button = defaultButtonOf(form)
    if (button) {
      const asClick = classifyRisk({ actionType: 'click', params: {}, element: elementSubject(button), url: win.location.href }, opts.rules)
      reasons.push(...asClick.reasons)
    }
  }
  if (high) fail('CONFIRMATION_REQUIRED', `high-risk step (${[...new Set(reasons)].join('; ')}): it needs the person's confirmation first`)
}
