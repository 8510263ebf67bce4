import { useState } from 'preact/hooks'
import { writeRuleOf } from '#protocol'
import { describeRule } from '../../replay/write'
import { useConsole } from '../context'

/**
 * The step the open task waits on, with Approve and Reject. For a write the barrier held, the person may also let
 * requests like it through for the rest of the task or always on the site: one or the other, never both.
 */
export function Decision({ taskId }: { taskId: string }) {
  const { store, t } = useConsole()
  const pending = store.taskView.value?.pendingConfirmation
  const [scope, setScope] = useState<{ actionId: string; scope: 'task' | 'site' } | null>(null)
  if (!pending || store.taskView.value?.task.status !== 'WAITING_CONFIRMATION') return null
  const requests = pending.evidence?.requests ?? []
  const kinds = pending.action.type === 'release' ? [...new Set(requests.filter((r) => r.origin).map((r) => describeRule(writeRuleOf(r))))] : []
  // A tick belongs to the question it was ticked on.
  const chosen = scope?.actionId === pending.actionId ? scope.scope : null
  const tick = (which: 'task' | 'site', on: boolean) => setScope(on ? { actionId: pending.actionId, scope: which } : null)
  const decide = (approved: boolean) =>
    store.decide({
      taskId,
      actionId: pending.actionId,
      approved,
      ...(approved ? {} : { reason: t('decideReason') }),
      ...(approved && kinds.length && chosen === 'task' ? { forTask: true } : {}),
      ...(approved && kinds.length && chosen === 'site' ? { always: true } : {}),
    })
  return (
    <section class="decision" data-testid="decision" data-action={pending.actionId}>
      <h2>{t('decideTitle')}</h2>
      {pending.reasons.length > 0 && (
        <ul>
          {pending.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
      {requests.length > 0 && (
        <div>
          {t('decideSends')}
          <ul class="url">
            {requests.map((r, i) => (
              <li key={i}>
                {r.method} {r.url}
              </li>
            ))}
          </ul>
        </div>
      )}
      {kinds.length > 0 && (
        <>
          <label data-testid="decide-for-task">
            <input type="checkbox" name="forTask" checked={chosen === 'task'} onChange={(e) => tick('task', e.currentTarget.checked)} /> {t('decideForTask')}
            <ul class="url" data-testid="decide-kinds">
              {kinds.map((k) => (
                <li key={k}>{k}</li>
              ))}
            </ul>
          </label>
          <label data-testid="decide-always">
            <input type="checkbox" name="always" checked={chosen === 'site'} onChange={(e) => tick('site', e.currentTarget.checked)} /> {t('decideAlways')}
          </label>
        </>
      )}
      <p>
        <button type="button" class="primary" disabled={store.deciding.value} onClick={() => void decide(true)}>
          {t('decideApprove')}
        </button>{' '}
        <button type="button" class="danger" disabled={store.deciding.value} onClick={() => void decide(false)}>
          {t('decideReject')}
        </button>
      </p>
      {store.decideError.value && (
        <p class="error" role="alert">
          {store.decideError.value}
        </p>
      )}
    </section>
  )
}
