import { describeError, describeResult, inReaderLang, skillWords } from '#protocol'
import { canceledByOf, statusOf } from '../../ui/status-words'
import type { PanelStore } from '../lib/panel/store'
import { PlanSummary } from './PlanReview'
import { SaveSkill } from './SaveSkill'
import { TakeoverNotice } from './TakeoverNotice'
import { TaskControls } from './TaskControls'
import { Timeline } from './Timeline'

/** The followed task: its goal and status, what the person can do with it, its steps and how it ended. */
export function TaskPanel({ store }: { store: PanelStore }) {
  const { t, task } = store
  const view = task.view.value
  if (!view) return null
  const { result, error, status } = view.task
  const shown = statusOf(store.lang, status, error, canceledByOf(view.task))
  // The person's own reject or cancel is their choice, told as such: no red, no "did not succeed".
  const byYou = shown.tone === 'by-you'
  const reason = typeof error?.details?.reason === 'string' ? error.details.reason : undefined
  return (
    <section class="card task" data-testid="task" aria-live="polite">
      <div class="task-head">
        <h2 class="task-goal">{view.task.goal}</h2>
        <span class={`badge status-${shown.tone}`} data-testid="task-status" data-status={status}>
          {shown.words}
        </span>
      </div>
      {view.task.skill && (
        <p class="muted" data-testid="task-skill">
          {t('start.skillPicked', { name: skillWords(inReaderLang(view.task.skillName ?? view.task.skill, view.task.wordsZh, store.lang), undefined, store.lang) })}
        </p>
      )}
      {view.task.driver && (
        <p class="muted" data-testid="task-driver">
          {t('mcp.drivenBy', { name: view.task.driver.name })}
        </p>
      )}
      <TakeoverNotice store={store} />
      {view.task.plan?.approved && (
        <details class="plan-held" data-testid="plan-held">
          <summary>{t('plan.held')}</summary>
          <PlanSummary store={store} plan={view.task.plan.approved} />
        </details>
      )}
      {/* How it ended comes before the steps that led there: in a narrow panel the timeline is many screens long. */}
      {(result || error) && (
        <div class={`result ${result?.success ? 'result-ok' : byYou ? 'result-by-you' : 'result-bad'}`} data-testid="result">
          <h3>{t(result?.success ? 'result.success' : byYou ? 'words.resultByYou' : 'result.failure')}</h3>
          {result?.text && <p>{describeResult(result, store.lang)}</p>}
          {error && byYou && <p data-code={error.code}>{describeError(error, store.lang)}</p>}
          {error && byYou && reason && <p class="muted">{t('words.yourReason', { reason })}</p>}
          {error && !byYou && (
            <p class="step-error" data-code={error.code} title={error.message}>
              {describeError(error, store.lang)} <span class="error-code muted">{t('words.code', { code: error.code })}</span>
            </p>
          )}
        </div>
      )}
      <SaveSkill store={store} />
      <TaskControls store={store} />
      <Timeline store={store} />
      {view.task.driver && view.task.status === 'RUNNING' && !view.currentAction && !task.thinking.value && (
        <p class="thinking-line" data-testid="driver-turn">
          {t('mcp.waiting', { name: view.task.driver.name })}
        </p>
      )}
      {task.thinking.value && (
        <p class="thinking-line" data-testid="thinking">
          <span class="thinking">{t('thinking')}</span>
        </p>
      )}
    </section>
  )
}
