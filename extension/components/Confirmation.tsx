import { useEffect, useRef } from 'preact/hooks'
import type { PanelStore } from '../lib/panel/store'
import { AllowChoices } from './AllowChoices'
import { ConfirmEvidence } from './ConfirmEvidence'

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
      <ConfirmEvidence store={store} pending={pending} />
      <AllowChoices store={store} pending={pending} />
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
