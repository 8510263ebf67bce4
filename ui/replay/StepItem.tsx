import { describeError, isActionType, isEvidenceStep, isPersonChoice, riskReasonsIn } from '#protocol'
import type { ReplayDecision, ReplayStep } from './model'
import { formatTime, useReplayContext } from './context'
import { Shot } from './Shot'
import { describeRule } from './write'
import { principalName } from '../principal-words'
import type { Lang } from '../i18n'

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2))

/** The action in the reader's words, as the side panel names it; a type this page does not know stays as recorded. */
const actionName = (t: ReturnType<typeof useReplayContext>['t'], type: string) => (isActionType(type) ? t(`action_${type}`) : type)

type T = ReturnType<typeof useReplayContext>['t']
const shortId = (id: string) => (id.length > 12 ? `${id.slice(0, 10)}…` : id)

/**
 * Who answered, as a person says it: the principal the audit recorded (you in the side panel or the console, your
 * API token, an agent by name), or for an older audit, the side panel, the API or another browser by a short name.
 */
function approver(t: T, lang: Lang, answer: NonNullable<NonNullable<ReplayStep['confirmation']>['answer']>): string {
  if (answer.principal) return principalName(lang, answer.principal)
  if (answer.inPanel) return t('byYouInPanel')
  if (!answer.by) return t('bySomeone')
  if (answer.by === 'api') return t('byApi')
  return t('byClient', { id: shortId(answer.by) })
}

function Confirmation({ step }: { step: ReplayStep }) {
  const { t, lang } = useReplayContext()
  const c = step.confirmation!
  const answer = c.answer
  const reasons = riskReasonsIn(lang, c.reasons, c.reasonDetails)
  return (
    <div class={`confirmation ${answer ? (answer.approved ? 'approved' : 'rejected') : 'waiting'}`} data-confirmation>
      <div class="muted">{t('confirmAsked', { at: formatTime(c.requestedAt, lang) })}</div>
      {reasons.length > 0 && (
        <div data-reasons>{t('why', { reasons: reasons.join(t('reasonSeparator')) })}</div>
      )}
      {answer ? (
        <div class="confirmation-answer">
          <strong>{t(answer.approved ? 'confirmApproved' : 'confirmRejected', { by: approver(t, lang, answer), at: formatTime(answer.at, lang) })}</strong>
          {answer.reason && <span> · {t('confirmReason', { reason: answer.reason })}</span>}
          {answer.allowed && (
            <div data-allowed={answer.allowed.scope}>
              {t(answer.allowed.scope === 'task' ? 'confirmAllowedTask' : 'confirmAllowedSite', { rules: answer.allowed.rules.map(describeRule).join('; ') })}
            </div>
          )}
        </div>
      ) : (
        <div>{t('confirmWaiting')}</div>
      )}
    </div>
  )
}

/** What went wrong in the reader's words; the code stays beside it, small, for whoever reports the problem. */
function StepErrors({ step }: { step: ReplayStep }) {
  const { t, lang } = useReplayContext()
  return (
    <>
      {step.observation?.errors.map((e) => (
        <div class="step-error" key={e.code + e.message} data-code={e.code} title={e.message}>
          {describeError(e, lang)} <span class="error-code muted">{t('errorCode', { code: e.code })}</span>
        </div>
      ))}
    </>
  )
}

/** Before, after, then any other picture of the step. */
function StepShots({ step }: { step: ReplayStep }) {
  const shots = [step.before, step.after, ...step.screenshots].filter((a) => a !== undefined)
  if (!shots.length) return null
  return (
    <div class="thumbs">
      {shots.map((a) => (
        <Shot key={a.name} artifact={a} step={step.number ?? step.seq} />
      ))}
    </div>
  )
}

/** The picture taken before a confirmation: part of the record, not the task's own work, so it stays quiet. */
function EvidenceItem({ step }: { step: ReplayStep }) {
  const { t } = useReplayContext()
  return (
    <li class={`step step-evidence outcome-${step.outcome}`} data-step={step.seq} data-action={step.actionId} data-evidence="">
      <div class="step-goal">{t('evidenceGoal')}</div>
      <StepErrors step={step} />
      <StepShots step={step} />
    </li>
  )
}

/** One action of the task: what it was for, what it touched, how risky, who approved it, what came of it. */
export function StepItem({ step }: { step: ReplayStep }) {
  const { t, say } = useReplayContext()
  if (isEvidenceStep(step)) return <EvidenceItem step={step} />
  const o = step.observation
  return (
    <li class={`step outcome-${step.outcome}`} data-step={step.seq} data-number={step.number} data-action={step.actionId}>
      <div class="step-head">
        {step.number !== undefined && <span class="step-seq">{t('step', { n: step.number })}</span>}
        <strong class="step-type" data-type={step.type}>
          {actionName(t, step.type)}
        </strong>
        {step.target && <span class="step-target">{step.target}</span>}
        <span class={`badge risk-${step.risk}`}>{t(`risk_${step.risk}`)}</span>
        <span class={`badge step-outcome outcome-${step.outcome}`}>{t(`outcome_${step.outcome}`)}</span>
      </div>
      {step.goal && <div class="step-goal">{say(step.goal)}</div>}
      {step.detail && <div class="step-detail">{step.detail}</div>}
      {step.confirmation && <Confirmation step={step} />}
      {o && (o.url || o.title) && (
        <div class="step-page muted">
          {t('pageIs', { title: o.title ?? '' })}
          {o.title && o.url ? ' — ' : ''}
          {o.url && <span class="url">{o.url}</span>}
        </div>
      )}
      <StepErrors step={step} />
      {o?.extracted !== undefined && (
        <details class="step-extracted">
          <summary>{t('extracted')}</summary>
          <pre>{json(o.extracted)}</pre>
        </details>
      )}
      <StepShots step={step} />
    </li>
  )
}

/** Why the planner stopped: the person's own no is theirs, quiet; anything else in plain words with its code. */
function DecisionError({ decision }: { decision: ReplayDecision }) {
  const { t, lang } = useReplayContext()
  if (!decision.code) return <div class="step-error">{decision.error}</div>
  const error = { code: decision.code, message: decision.error ?? '', ...(decision.details ? { details: decision.details } : {}) }
  if (isPersonChoice(error)) return <div class="muted" data-code={decision.code}>{describeError(error, lang)}</div>
  return (
    <div class="step-error" data-code={decision.code} title={decision.error}>
      {describeError(error, lang)} <span class="error-code muted">{t('errorCode', { code: decision.code })}</span>
    </div>
  )
}

/** What the planner decided and what it cost. */
export function DecisionItem({ decision }: { decision: ReplayDecision }) {
  const { t, lang } = useReplayContext()
  const planner = decision.planner === 'script' ? t('planner_script') : decision.planner === 'llm' ? t('planner_llm') : (decision.planner ?? t('decision'))
  const byYou = decision.kind === 'fail' && !!decision.code && isPersonChoice({ code: decision.code })
  const outcome = byYou ? t('decision_byYou') : decision.kind && decision.kind !== 'act' ? t(`decision_${decision.kind}` as 'decision_done') : undefined
  const u = decision.usage
  return (
    <li class="decision" data-decision>
      <div class="row">
        <span class="muted">{formatTime(decision.at, lang)}</span>
        <strong>{planner}</strong>
        {decision.model && <span class="muted">{decision.model}</span>}
        {outcome && <span>{outcome}</span>}
        {u && (u.totalTokens !== undefined || u.latencyMs !== undefined) && (
          <span class="badge usage">{t('usage', { tokens: u.totalTokens ?? 0, ms: Math.round(u.latencyMs ?? 0) })}</span>
        )}
      </div>
      {decision.nextGoal && <div>{t('nextGoal', { goal: decision.nextGoal })}</div>}
      {decision.error && <DecisionError decision={decision} />}
      {decision.thinking && (
        <details>
          <summary>{t('thinking')}</summary>
          <pre>{decision.thinking}</pre>
        </details>
      )}
    </li>
  )
}
