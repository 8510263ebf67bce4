import type { StepView, TaskExchange } from '#protocol'
import { describeError, inReaderLang, isEvidenceStep } from '#protocol'
import { askRuleOf, describeHarmless } from '../lib/panel/ask-always'
import { describeAction, describeStep, describeTyped } from '../lib/panel/describe'
import { exchangeWords, timelineEntries } from '../lib/panel/exchanges'
import type { PanelStore } from '../lib/panel/store'
import { Shot } from './Shot'

function Thumbs({ store, step }: { store: PanelStore; step: StepView }) {
  if (!step.artifacts?.length) return null
  return (
    <div class="thumbs">
      {step.artifacts.map((a) => (
        <Shot key={a.name} store={store} name={a.name} caption={store.t(`shot.${a.label}`)} />
      ))}
    </div>
  )
}

/** What went wrong, in the person's words; the code stays beside it, small, for whoever reports the problem. */
function StepErrors({ store, step }: { store: PanelStore; step: StepView }) {
  return (
    <>
      {step.errors.map((e) => (
        <div key={e.code + e.message} class="step-error" data-code={e.code} title={e.message}>
          {describeError(e, store.lang)} <span class="error-code muted">{store.t('words.code', { code: e.code })}</span>
        </div>
      ))}
    </>
  )
}

/**
 * What the page sent during the step without a question, each with the person's way to be asked about its kind on
 * its site from the next step on (or to stop being asked).
 */
function HarmlessWrites({ store, step }: { store: PanelStore; step: StepView }) {
  const { t, askAlways, busy } = store
  if (!step.harmless?.length) return null
  return (
    <ul class="harmless" data-testid="harmless">
      {step.harmless.map((write, i) => {
        const rule = askRuleOf(write)
        const asked = !!rule && askAlways.isAsked(rule)
        const words = rule ? { kinds: t(`harmless.kinds.${rule.kind}`), site: rule.site } : undefined
        return (
          <li key={i} class="muted" data-testid="harmless-write" data-kind={write.kind}>
            <span class="url">{describeHarmless(write, t)}</span>
            {rule && words && asked && (
              <span class="asked">
                {t('harmless.asked', words)}{' '}
                <button type="button" class="ask-toggle" data-testid="ask-always-toggle" aria-pressed="true" disabled={busy.value} onClick={() => void askAlways.toggle(rule)}>
                  {t('harmless.stopAsking')}
                </button>
              </span>
            )}
            {rule && words && !asked && (
              <button type="button" class="ask-toggle" data-testid="ask-always-toggle" aria-pressed="false" disabled={busy.value} onClick={() => void askAlways.toggle(rule)}>
                {t('harmless.askAlways', words)}
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** The picture the server took before asking: part of the record, not work the agent did, so it stays quiet. */
function EvidenceStep({ store, step }: { store: PanelStore; step: StepView }) {
  return (
    <li class={`step step-evidence outcome-${step.outcome}`} data-testid="step" data-evidence="">
      <div class="step-goal">{store.t('step.evidence')}</div>
      <StepErrors store={store} step={step} />
      <Thumbs store={store} step={step} />
    </li>
  )
}

/** What the agent did: what it was for, what it did, how risky, how it went, and its pictures. */
function ActionStep({ store, step }: { store: PanelStore; step: StepView }) {
  const { t } = store
  const typed = describeTyped(step, t)
  const words = store.task.view.value?.task.wordsZh
  return (
    <li class={`step outcome-${step.outcome}`} data-testid="step">
      {step.goal && <div class="step-goal">{inReaderLang(step.goal, words, store.lang)}</div>}
      <div class="step-head">
        {step.number !== undefined && <span class="step-seq">{step.number}</span>}
        <span class="step-what">{describeStep(step, t)}</span>
        {step.target && <span class="step-target">“{step.target}”</span>}
        {typed && <span class="step-typed">{typed}</span>}
        <span class={`badge risk-${step.risk}`}>{t(`risk.${step.risk}`)}</span>
        <span class={`step-outcome outcome-${step.outcome}`}>{t(`outcome.${step.outcome}`)}</span>
      </div>
      {step.note && <div class="step-note">{step.outcome === 'rejected' ? t('words.yourReason', { reason: step.note }) : step.note}</div>}
      <StepErrors store={store} step={step} />
      <HarmlessWrites store={store} step={step} />
      <Thumbs store={store} step={step} />
    </li>
  )
}

/** A question the task asked and the person's answer, where it came between the steps. */
function Exchange({ store, exchange }: { store: PanelStore; exchange: TaskExchange }) {
  const words = exchangeWords(exchange, store.t)
  return (
    <li class="step exchange" data-testid="exchange">
      <div class="exchange-asked">
        <span class="muted">{words.asked}</span>
        {words.question && <span class="exchange-question"> {words.question}</span>}
      </div>
      <div class="exchange-answer">
        <span class="muted">{words.answered}</span> <span class="exchange-text">{words.answer}</span>
      </div>
    </li>
  )
}

/**
 * Every step so far, newest last: what it was for, what it did, how risky, how it went, and its pictures; and each
 * question the task asked with the person's answer, where it came.
 */
export function Timeline({ store }: { store: PanelStore }) {
  const { t, task } = store
  const view = task.view.value
  if (!view) return null
  const running = task.running.value
  const entries = timelineEntries(view.steps, view.exchanges)
  if (entries.length === 0 && !running) return <p class="muted">{t('timeline.empty')}</p>
  return (
    <ol class="timeline" data-testid="timeline">
      {entries.map((entry) =>
        entry.kind === 'exchange' ? (
          <Exchange key={`q${entry.exchange.at}`} store={store} exchange={entry.exchange} />
        ) : isEvidenceStep(entry.step) ? (
          <EvidenceStep key={entry.step.actionId} store={store} step={entry.step} />
        ) : (
          <ActionStep key={entry.step.actionId} store={store} step={entry.step} />
        ),
      )}
      {running &&
        (isEvidenceStep({ type: running.type, goal: running.reason }) ? (
          <li class="step step-evidence outcome-pending" data-testid="step-running" data-evidence="">
            <div class="step-goal">{t('step.evidence')}</div>
          </li>
        ) : (
          <li class="step outcome-pending" data-testid="step-running">
            <div class="step-head">
              {view.currentNumber !== undefined && <span class="step-seq">{view.currentNumber}</span>}
              <span class="step-what">{describeAction(running, t)}</span>
              <span class={`badge risk-${running.risk}`}>{t(`risk.${running.risk}`)}</span>
              <span class="step-outcome">{t('outcome.pending')}</span>
            </div>
          </li>
        ))}
    </ol>
  )
}
