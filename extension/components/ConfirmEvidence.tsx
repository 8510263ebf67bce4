import type { ComponentChildren } from 'preact'
import type { PendingConfirmation } from '#protocol'
import { inReaderLang } from '#protocol'
import { describeAction } from '../lib/panel/describe'
import { pendingReasons } from '../lib/panel/reasons'
import type { PanelStore } from '../lib/panel/store'
import { HeldRequests } from './HeldRequests'
import { Shot } from './Shot'

/** One line of the card's facts: what it is about, then what it says. */
function Fact({ term, children, ...dd }: { term: string; children: ComponentChildren; class?: string; 'data-testid'?: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd {...dd}>{children}</dd>
    </>
  )
}

/**
 * What the step waiting for the person does, what for and why it is risky, on which element of which page, what it
 * sends, and the page as it looks now.
 */
export function ConfirmEvidence({ store, pending }: { store: PanelStore; pending: PendingConfirmation }) {
  const { t } = store
  const evidence = pending.evidence ?? {}
  const origin = evidence.origin ?? (evidence.url && URL.canParse(evidence.url) ? new URL(evidence.url).origin : undefined)
  const shot = evidence.screenshot
  const reasons = pendingReasons(pending, store.lang)
  return (
    <>
      <dl class="facts">
        <Fact term={t('confirm.what')} class="what" data-testid="what">
          {describeAction(pending.action, t, evidence.targetText)}
        </Fact>
        {pending.goal && <Fact term={t('confirm.for')}>{inReaderLang(pending.goal, store.task.view.value?.task.wordsZh, store.lang)}</Fact>}
        {reasons.length > 0 && (
          <Fact term={t('confirm.why')}>
            <ul class="reasons" data-testid="reasons">
              {reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </Fact>
        )}
        {evidence.targetText && (
          <Fact term={t('confirm.target')} data-testid="target">
            “{evidence.targetText}”
          </Fact>
        )}
        {(evidence.title || evidence.url) && (
          <Fact term={t('confirm.page')}>
            {evidence.title && <div>{evidence.title}</div>}
            {evidence.url && <div class="url">{evidence.url}</div>}
          </Fact>
        )}
        {origin && (
          <Fact term={t('confirm.domain')} class="domain" data-testid="domain">
            {origin}
          </Fact>
        )}
        {evidence.requests?.length ? (
          <Fact term={t('confirm.sends')}>
            <HeldRequests requests={evidence.requests} />
          </Fact>
        ) : null}
      </dl>
      {shot && (
        <Shot store={store} name={shot.name} caption={t(evidence.requests?.length ? 'confirm.after' : 'confirm.before')} wide {...(shot.mark ? { mark: shot.mark } : {})} />
      )}
    </>
  )
}
