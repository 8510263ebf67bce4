import { useEffect, useRef } from 'preact/hooks'
import { writeRuleOf } from '#protocol'
import { describeRule } from '../lib/panel/allowed-writes'
import { describeAction, describeSends } from '../lib/panel/describe'
import { pendingReasons } from '../lib/panel/reasons'
import type { PanelStore } from '../lib/panel/store'
import { Shot } from './Shot'

/** What a tick lets through: each kind as method, site and path. */
function RuleList({ kinds, testId }: { kinds: string[]; testId: string }) {
  return (
    <ul class="kinds url" data-testid={testId}>
      {kinds.map((kind) => (
        <li key={kind}>{kind}</li>
      ))}
    </ul>
  )
}

const typing = (target: EventTarget | null) => target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement

/**
 * The high-risk step waiting for the person: what it does, why it is risky, on which element of which page,
 * and the page as it looks now. Focus lands on the card, never on Approve: a stray Enter approves nothing.
 */
export function Confirmation({ store }: { store: PanelStore }) {
  const { t, task } = store
  const pending = task.pending.value
  const card = useRef<HTMLElement>(null)
  const approve = useRef<HTMLButtonElement>(null)
  const reason = useRef<HTMLInputElement>(null)
  const actionId = pending?.actionId
  useEffect(() => {
    if (actionId) card.current?.focus()
  }, [actionId])
  if (!pending) return null

  const evidence = pending.evidence ?? {}
  const origin = evidence.origin ?? (evidence.url && URL.canParse(evidence.url) ? new URL(evidence.url).origin : undefined)
  const shot = evidence.screenshot
  const reasons = pendingReasons(pending, store.lang)
  // What ticking "allow like this" would let through, in the words the list of allowed writes uses.
  const kinds = [...new Set((evidence.requests ?? []).filter((r) => r.origin).map((r) => describeRule(writeRuleOf(r), t)))]
  return (
    <section
      ref={card}
      tabIndex={-1}
      class={`card confirm confirm-${pending.risk}`}
      data-testid="confirmation"
      data-action={pending.actionId}
      aria-labelledby="confirm-title"
      onKeyDown={(e) => {
        if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return
        const key = e.key.toLowerCase()
        if (key === 'a') approve.current?.focus()
        else if (key === 'r') reason.current?.focus()
        else return
        e.preventDefault()
      }}
    >
      <div class="confirm-head">
        <h2 id="confirm-title">{t('confirm.title')}</h2>
        <span class={`badge risk-${pending.risk}`} data-testid="risk">
          {t(`risk.${pending.risk}`)}
        </span>
      </div>
      <dl class="facts">
        <dt>{t('confirm.what')}</dt>
        <dd class="what" data-testid="what">
          {describeAction(pending.action, t, evidence.targetText)}
        </dd>
        {pending.goal && (
          <>
            <dt>{t('confirm.for')}</dt>
            <dd>{pending.goal}</dd>
          </>
        )}
        {reasons.length > 0 && (
          <>
            <dt>{t('confirm.why')}</dt>
            <dd>
              <ul class="reasons" data-testid="reasons">
                {reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {evidence.targetText && (
          <>
            <dt>{t('confirm.target')}</dt>
            <dd data-testid="target">“{evidence.targetText}”</dd>
          </>
        )}
        {(evidence.title || evidence.url) && (
          <>
            <dt>{t('confirm.page')}</dt>
            <dd>
              {evidence.title && <div>{evidence.title}</div>}
              {evidence.url && <div class="url">{evidence.url}</div>}
            </dd>
          </>
        )}
        {origin && (
          <>
            <dt>{t('confirm.domain')}</dt>
            <dd class="domain" data-testid="domain">
              {origin}
            </dd>
          </>
        )}
        {evidence.requests?.length ? (
          <>
            <dt>{t('confirm.sends')}</dt>
            <dd>
              <ul class="sends" data-testid="sends">
                {evidence.requests.map((r, i) => (
                  <li key={i}>
                    <div class="url">
                      {r.method} {r.url}
                    </div>
                    {describeSends(r) && <div class="muted">{describeSends(r)}</div>}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
      {shot && <Shot store={store} name={shot.name} caption={t(evidence.requests?.length ? 'confirm.after' : 'confirm.before')} wide />}
      {pending.action.type === 'release' && kinds.length > 0 && (
        <>
          <label class="check" data-testid="allow-for-task">
            <input type="checkbox" name="forTask" checked={task.allowForTask.value} onChange={(e) => task.setAllowForTask(e.currentTarget.checked)} />
            <span>
              {t('confirm.forTask')}
              <span class="hint muted">{t('confirm.forTaskHint')}</span>
              <RuleList kinds={kinds} testId="for-task-kinds" />
            </span>
          </label>
          <label class="check" data-testid="always-allow">
            <input type="checkbox" name="always" checked={task.alwaysAllow.value} onChange={(e) => task.setAlwaysAllow(e.currentTarget.checked)} />
            <span>
              {t('confirm.always')}
              <span class="hint muted">{t('confirm.alwaysHint')}</span>
              <RuleList kinds={kinds} testId="always-kinds" />
            </span>
          </label>
        </>
      )}
      <label>
        {t('confirm.reason')}
        <input
          ref={reason}
          name="reason"
          value={task.rejectReason.value}
          onInput={(e) => task.setRejectReason(e.currentTarget.value)}
          // Enter in the reason rejects with it, as Enter submits any one-line answer; only a reason typed here does.
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.isComposing || !e.currentTarget.value.trim()) return
            e.preventDefault()
            void task.decide(false, pending.actionId)
          }}
        />
      </label>
      <div class="row">
        <button ref={approve} type="button" class="primary approve" disabled={store.busy.value} onClick={() => void task.decide(true, pending.actionId)}>
          {t('confirm.approve')}
        </button>
        <button type="button" class="danger reject" disabled={store.busy.value} onClick={() => void task.decide(false, pending.actionId)}>
          {t('confirm.reject')}
        </button>
      </div>
      <p class="hint muted">{t('confirm.hint')}</p>
    </section>
  )
}
