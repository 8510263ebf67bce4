import { nanoid } from 'nanoid'
import type { Action, ElementInfo, Observation, Risk, RiskReason, StepView, Target } from '#protocol'
import { CREDENTIAL_SELECTOR, EVIDENCE_GOAL, asksFirst, describeRiskReason, isCredentialField, isEvidenceStep } from '#protocol'
import { setStatus, type PendingEvent } from './events'
import { formToAction, isPlannedAction } from './form-to-action'
import { checkNavigate, failBeforeDispatch } from './navigation-check'
import { confirmationEvidence, pageIsPictured, targetTextOf } from './step-details'
import type { TaskRecord } from './task-record'
import type { UploadFolder } from '../privacy/upload-folder'
import { elementForTarget, elementFromTree } from './tree-element'
import { offPlanReasons } from './plan-check'

export interface RiskAssessor {
  assess(input: {
    type: Action['type']
    params: Record<string, unknown>
    target?: Action['target']
    element?: ElementInfo
    /** Where a drag drops its element. */
    dropTarget?: ElementInfo
    url?: string
    declared?: Risk
    named?: string
  }): { risk: Risk; reasons: string[]; details: RiskReason[] }
}

/**
 * Takes the first queued form and makes it the task's action in flight. A step asked about first (asksFirst: a
 * high-risk one the write barrier cannot answer for) waits for the person (WAITING_CONFIRMATION), after a fresh
 * picture of the page when none was taken since the last step; anything else is ready for the next poll. Returns false when nothing was queued.
 */
export function proposeNext(
  task: TaskRecord,
  observation: Observation | null,
  policy: RiskAssessor,
  events: PendingEvent[],
  uploads?: Pick<UploadFolder, 'check'>,
): boolean {
  if (task.current || !['RUNNING', 'WAITING_PAGE'].includes(task.status)) return false
  let form = task.queue.shift()
  if (!form) return false
  if (!isPlannedAction(form)) throw new Error(`${form.type} cannot be queued as an action`)
  if (form.type === 'navigate') {
    const checked = checkNavigate(task, form.url)
    if (!checked.ok) {
      // Nothing to run: the planner decides again on the failure (proposeNext found nothing to propose).
      failBeforeDispatch(task, form, checked, observation, events)
      if (task.status === 'WAITING_PAGE') setStatus(task, 'RUNNING', events)
      return false
    }
    form = { ...form, url: checked.url }
  }
  if (form.type === 'upload') {
    // A file that cannot be handed over is refused before the person is asked to approve it.
    const checked = uploads?.check(form.file) ?? { ok: false as const, message: 'No upload folder is set on the Tandem server (TANDEM_UPLOAD_DIR), so no file can be uploaded.' }
    if (!checked.ok) {
      failBeforeDispatch(task, form, { ok: false, error: { code: 'UPLOAD_REFUSED', message: checked.message } }, observation, events)
      if (task.status === 'WAITING_PAGE') setStatus(task, 'RUNNING', events)
      return false
    }
  }
  const seq = task.seq + 1
  const partial = formToAction(form, { taskId: task.id, actionId: `a_${nanoid(14)}`, seq }, observation?.elements)
  const index = partial.target?.by === 'index' ? partial.target.value : undefined
  const element =
    index === undefined
      ? elementForTarget(partial.target, observation?.elements)
      : (observation?.elements?.find((e) => e.index === index) ?? elementFromTree(observation?.elementTree ?? '', index))
  const to = partial.type === 'drag' ? partial.params.to : undefined
  const dropTarget = typeof to === 'number' ? (observation?.elements?.find((e) => e.index === to) ?? elementFromTree(observation?.elementTree ?? '', to)) : undefined
  // The picture taken for this card found the element and what it says: a script's `#send` is "Send message".
  const pictured = pictureFor(task.steps, task.resumedAt)?.target
  const assessed = policy.assess({
    type: partial.type,
    params: partial.params,
    target: partial.target,
    element,
    ...(dropTarget ? { dropTarget } : {}),
    url: observation?.url,
    declared: form.risk,
    ...(pictured ? { named: pictured } : {}),
  })
  // What the browser blocked when this step last ran is why it is asked about now, and what the card shows it sends.
  const blocked = task.blockedWrites ?? []
  // A plan-first task asks again about a step that leaves the plan the person approved.
  const offPlan = offPlanReasons(task.plan, { type: partial.type, params: partial.params, element, pageUrl: observation?.url }, assessed.risk, assessed.details)
  const risk: Risk = blocked.length || offPlan.length ? 'high' : assessed.risk
  const addedDetails: RiskReason[] = [...offPlan, ...blocked.map((r): RiskReason => ({ code: 'held-write', method: r.method, site: r.origin, path: r.path }))]
  const reasons = [...assessed.reasons, ...addedDetails.map((d) => describeRiskReason(d, 'en'))]
  const reasonDetails = [...assessed.details, ...addedDetails]
  // Where the barrier holds what the step sends, that decides; its words only where the barrier cannot see.
  const requiresConfirmation = asksFirst({ risk, details: reasonDetails }, task.barrier, form.risk)
  const action: Action = { ...partial, risk, requiresConfirmation, ...(task.followed && !requiresConfirmation ? { followed: true } : {}) }
  const text = action.params.text
  // A {{secret:NAME}} placeholder is safe to keep: the value is filled in on delivery and scrubbed everywhere.
  if (action.type === 'type' && typeof text === 'string' && !text.includes('{{secret:') && typesCredential(action, element)) {
    // The value itself stays out of the audit; the extension also keeps it out of what it observes.
    action.params.sensitive = true
    task.sensitive = [...new Set([...(task.sensitive ?? []), text])]
  }
  // The card shows the page as it is now, the element about to be acted on marked: picture it first, then propose
  // this same form again. A step aimed at an element is pictured for its own card, with the element in view.
  const marked = !!partial.target && !pictureFor(task.steps, task.resumedAt)
  if (requiresConfirmation && (marked || !pageIsPictured(task.steps, task.resumedAt))) {
    task.queue.unshift(form)
    proposeEvidence(task, seq, { type: partial.type, risk, reasons, ...(partial.target ? { target: partial.target } : {}) }, events)
    return true
  }
  task.seq = seq
  const goal = task.planGoal ?? form.reason
  const targetText = targetTextOf(action.target, element, pictured)
  const details = { ...(goal ? { goal } : {}), ...(targetText ? { targetText } : {}) }
  events.push({ type: 'action.proposed', actionId: action.actionId, data: { action, risk, reasons, reasonDetails, ...details, ...(element ? { element } : {}) } })
  if (action.requiresConfirmation) {
    const evidence = { ...confirmationEvidence(observation, targetText, task.steps), ...(blocked.length ? { requests: blocked } : {}) }
    task.blockedWrites = undefined
    task.current = { action, form, phase: 'awaiting_confirmation', reasons, reasonDetails, deliveries: 0, ...details, evidence }
    events.push({ type: 'confirmation.requested', actionId: action.actionId, data: { risk, reasons, reasonDetails, ...details, evidence } })
    setStatus(task, 'WAITING_CONFIRMATION', events, 'a high-risk action needs the person to approve it')
  } else {
    task.current = { action, form, phase: 'ready', reasons, reasonDetails, deliveries: 0, ...details }
  }
  return true
}

/** A low-risk screenshot of the task's page, taken for the confirmation card of the action it names. */
function proposeEvidence(task: TaskRecord, seq: number, before: { type: string; risk: Risk; reasons: string[]; target?: Target }, events: PendingEvent[]) {
  const form = { type: 'screenshot' as const, reason: EVIDENCE_GOAL }
  const action: Action = {
    taskId: task.id,
    actionId: `a_${nanoid(14)}`,
    seq,
    type: 'screenshot',
    // The element to bring into view and mark on the picture.
    ...(before.target ? { target: before.target } : {}),
    params: {},
    risk: 'low',
    requiresConfirmation: false,
    reason: EVIDENCE_GOAL,
  }
  task.seq = seq
  const { target: _, ...about } = before
  events.push({ type: 'action.proposed', actionId: action.actionId, data: { action, risk: 'low', reasons: [], goal: EVIDENCE_GOAL, evidence: true, before: about } })
  task.current = { action, form, phase: 'ready', reasons: [], deliveries: 0, goal: EVIDENCE_GOAL, isEvidence: true }
}

const typesCredential = (action: Pick<Action, 'target'>, element: ElementInfo | undefined) =>
  isCredentialField(element) ||
  (action.target?.by === 'selector' && CREDENTIAL_SELECTOR.test(action.target.value))

/**
 * The picture just taken for the card of the step being proposed again: the last step, unless the person has had
 * the page since (what they did is not in it, and the step proposed may be another one).
 */
const pictureFor = (steps: StepView[], resumedAt: string | undefined): StepView | undefined => {
  const last = steps.at(-1)
  return last && isEvidenceStep(last) && !(resumedAt && resumedAt >= last.at) ? last : undefined
}
