import type { ArtifactLink, AuditEvent, KnownAuditEvent, PendingConfirmation, StepView } from '#protocol'
import { describeError, isEvidenceStep, parseAuditEvent, riskReasonsIn } from '#protocol'
import type { Lang } from '../../ui/i18n'
import { REPLAY_DICTIONARIES } from '../../ui/replay/i18n'
import type { DemoText } from './messages'

/** The terminal's words for a step's risk and outcome; without them the line keeps the recorded codes. */
export interface StepWords {
  t: DemoText
  lang: Lang
}

/** An action as the replay page names it ("点击", "Type text"); a type this version has no words for keeps its code. */
function actionWord(type: string, words?: StepWords): string {
  if (!words) return type
  const key = `action_${type}` as keyof (typeof REPLAY_DICTIONARIES)['en']
  return REPLAY_DICTIONARIES[words.lang][key] ?? REPLAY_DICTIONARIES.en[key] ?? type
}

const clip = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** What a step acted on, as a person would name it; a navigation names its page. */
function targetOf(step: StepView): string {
  // What a type step typed goes beside its field; a password never, only that one was typed.
  const typed = step.sensitive ? ' ← ••••' : step.text !== undefined ? ` ← “${clip(step.text, 40)}”` : ''
  if (step.target) return `“${clip(step.target)}”${typed}`
  if (typed) return typed.slice(3)
  if (step.type === 'navigate' && step.url) return step.url
  return '—'
}

/**
 * One timeline line: number · action · target · risk · outcome · screenshots (as named inside the export zip). The
 * number is the one the side panel shows; the picture taken before asking is not a step and has none.
 */
export function formatStep(step: StepView, words?: StepWords): string {
  const shots = step.artifacts?.length ? step.artifacts.map((a) => `${a.label} artifacts/${a.name}`).join(', ') : '—'
  const error = (e: StepView['errors'][number]) => (words ? `${describeError(e, words.lang)} (${e.code})` : `${e.code}: ${clip(e.message, 120)}`)
  const errors = step.errors.length ? `  ! ${step.errors.map(error).join('; ')}` : ''
  const note = step.note ? `  (${clip(step.note, 120)})` : ''
  const evidence = isEvidenceStep(step)
  const goal = evidence && words ? `  — ${words.t('evidence')}` : step.goal ? `  — ${clip(step.goal)}` : ''
  const risk = words ? words.t(`risk.${step.risk}`) : step.risk
  const outcome = words ? words.t(`outcome.${step.outcome}`) : step.outcome
  const number = evidence ? '—' : `#${step.number ?? step.seq}`
  return `${number} · ${actionWord(step.type, words)} · ${targetOf(step)} · ${risk} · ${outcome} · ${shots}${goal}${errors}${note}`
}

/** Whether a step still lacks what the timeline prints and the audit can tell. */
export const needsAudit = (step: StepView) => !step.target || !step.artifacts || !step.goal

/**
 * Fills a step's target, goal and screenshots from the audit where the status view leaves them out: the
 * proposed action names its target and reason, the observation its screenshots.
 */
export function fillFromAudit(step: StepView, events: AuditEvent[]): StepView {
  // Events this version cannot read are left out: the status view already said what it could.
  const mine = events.filter((e) => e.actionId === step.actionId).map(parseAuditEvent)
  const proposed = mine.find((e): e is Extract<KnownAuditEvent, { type: 'action.proposed' }> => e.type === 'action.proposed')?.data.action
  const params = proposed?.params ?? {}
  // A wait names what it waits for instead of an element.
  const waitedFor = typeof params.text === 'string' ? params.text : typeof params.urlIncludes === 'string' ? params.urlIncludes : undefined
  const target = proposed?.target ?? (step.type === 'waitFor' && waitedFor ? { by: 'text', value: waitedFor } : undefined)
  const shots: ArtifactLink[] = mine.flatMap((e) => (e.type === 'observation' ? e.data.artifacts.map((a) => ({ name: a.name, label: a.label })) : []))
  return {
    ...step,
    ...(!step.target && target && target.by !== 'index' ? { target: String(target.value) } : {}),
    ...(!step.goal && proposed?.reason ? { goal: proposed.reason } : {}),
    ...(!step.artifacts && shots.length ? { artifacts: shots } : {}),
  }
}

/** The action a confirmation is about, as the card names it. */
export function describePending(pending: PendingConfirmation, words?: StepWords): string {
  const target = pending.evidence?.targetText ?? (pending.action.target ? String(pending.action.target.value) : '')
  const action = actionWord(pending.action.type, words)
  return target ? `${action} “${clip(target)}”` : action
}

/** The line printed while a step waits for approval: its risk and reasons in the terminal's language. */
export function waitingLine(pending: PendingConfirmation, { t, lang }: StepWords): string {
  const reasons = riskReasonsIn(lang, pending.reasons, pending.reasonDetails).join(t('reasonSeparator')) || '—'
  return t('waiting', { action: describePending(pending, { t, lang }), risk: t(`risk.${pending.risk}`), reasons })
}

/** Steps in `steps` not printed yet, in order; `printed` remembers what was. */
export function newSteps(steps: StepView[], printed: Set<string>): StepView[] {
  const fresh = steps.filter((s) => !printed.has(`${s.actionId}:${s.outcome}`)).sort((a, b) => a.seq - b.seq)
  for (const s of fresh) printed.add(`${s.actionId}:${s.outcome}`)
  return fresh
}
