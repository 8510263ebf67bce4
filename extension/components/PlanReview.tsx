import { RiskKind, describeRiskKind, type TaskPlan } from '#protocol'
import type { PanelStore } from '../lib/panel/store'

/** The plan as the person reads it: steps in order, the sites, and what it will send. */
export function PlanSummary({ store, plan }: { store: PanelStore; plan: TaskPlan }) {
  const { t, lang } = store
  return (
    <>
      <h3>{t('plan.steps')}</h3>
      <ol class="plan-steps" data-testid="plan-steps">
        {plan.steps.map((step, i) => (
          <li key={i}>{step}</li>
        ))}
      </ol>
      <h3>{t('plan.sites')}</h3>
      <ul class="plan-sites" data-testid="plan-sites">
        {plan.sites.map((site) => (
          <li key={site}>
            <code>{site}</code>
          </li>
        ))}
      </ul>
      <h3>{t('plan.sends')}</h3>
      {plan.sends.length ? (
        <ul class="plan-sends" data-testid="plan-sends">
          {plan.sends.map((send, i) => (
            <li key={i} data-kind={send.kind}>
              {send.what} <span class="muted">{t('plan.kindOf', { kind: describeRiskKind(send.kind, lang) })}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('plan.noSends')}</p>
      )}
    </>
  )
}

/** A plan-first task's proposed plan, approved as it is or as the person edits it, once; or not run at all. */
export function PlanReview({ store }: { store: PanelStore }) {
  const { t, lang, planReview } = store
  const plan = planReview.proposed.value
  if (!plan) return null
  const edit = planReview.edit.value
  const busy = store.busy.value
  return (
    <section class="card attention plan-review" data-testid="plan" aria-live="polite">
      <h2>{t('plan.title')}</h2>
      <p class="muted">{t('plan.intro')}</p>
      {!edit && <PlanSummary store={store} plan={plan} />}
      {edit && (
        <form
          class="plan-edit"
          onSubmit={(e) => {
            e.preventDefault()
            void planReview.approve()
          }}
        >
          <label>
            {t('plan.steps')}
            <textarea name="plan-steps" rows={Math.min(10, plan.steps.length + 2)} value={edit.steps} onInput={(e) => planReview.setSteps(e.currentTarget.value)} />
          </label>
          <p class="muted">{t('plan.stepsHint')}</p>
          <label>
            {t('plan.sites')}
            <textarea name="plan-sites" rows={Math.min(6, plan.sites.length + 1)} value={edit.sites} onInput={(e) => planReview.setSites(e.currentTarget.value)} />
          </label>
          <p class="muted">{t('plan.sitesHint')}</p>
          <fieldset>
            <legend>{t('plan.sends')}</legend>
            {edit.sends.map((send, i) => (
              <div class="row plan-send" key={i}>
                <input aria-label={t('plan.sendWhat')} value={send.what} onInput={(e) => planReview.setSend(i, e.currentTarget.value)} />
                <select aria-label={t('plan.sendKind')} value={send.kind} onChange={(e) => planReview.setSendKind(i, e.currentTarget.value as RiskKind)}>
                  {RiskKind.options.map((kind) => (
                    <option key={kind} value={kind}>
                      {describeRiskKind(kind, lang)}
                    </option>
                  ))}
                </select>
                <button type="button" onClick={() => planReview.removeSend(i)}>
                  {t('plan.removeSend')}
                </button>
              </div>
            ))}
            <button type="button" onClick={() => planReview.addSend()}>
              {t('plan.addSend')}
            </button>
          </fieldset>
        </form>
      )}
      <div class="row">
        <button type="button" class="primary" data-testid="plan-approve" disabled={busy} onClick={() => void planReview.approve()}>
          {t(edit ? 'plan.approveEdited' : 'plan.approve')}
        </button>
        {edit ? (
          <button type="button" data-testid="plan-stop-edit" disabled={busy} onClick={() => planReview.stopEdit()}>
            {t('plan.stopEdit')}
          </button>
        ) : (
          <button type="button" data-testid="plan-edit" disabled={busy} onClick={() => planReview.startEdit()}>
            {t('plan.edit')}
          </button>
        )}
        <button type="button" class="danger" data-testid="plan-reject" disabled={busy} onClick={() => void planReview.reject()}>
          {t('plan.reject')}
        </button>
      </div>
    </section>
  )
}
