import type { PanelStore } from '../lib/panel/store'

const describe = (action: { type: string; target?: { by: string; value: unknown }; params: Record<string, unknown> }) => {
  const target = action.target ? ` ${action.target.by === 'index' ? `element [${action.target.value}]` : `“${action.target.value}”`}` : ''
  const url = typeof action.params.url === 'string' ? ` ${action.params.url}` : ''
  return `${action.type}${target}${url}`
}

/** The action waiting for the person: what it does, how risky, why, and the two answers. */
export function Confirmation({ store }: { store: PanelStore }) {
  const pending = store.pending.value
  if (!pending) return null
  return (
    <section class={`card risk-${pending.risk}`} data-testid="confirmation">
      <h2>Approve this step?</h2>
      <p class="action">{describe(pending.action)}</p>
      <p>
        Risk: <strong>{pending.risk}</strong>
      </p>
      {pending.reasons.length > 0 && (
        <ul>
          {pending.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      )}
      <div class="row">
        <button type="button" class="approve" disabled={store.busy.value} onClick={() => void store.decide(true)}>
          Approve
        </button>
        <button type="button" class="reject" disabled={store.busy.value} onClick={() => void store.decide(false, 'Rejected in the side panel')}>
          Reject
        </button>
      </div>
    </section>
  )
}
