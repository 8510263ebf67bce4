import type { PendingConfirmation } from '#protocol'
import { writeRuleOf } from '#protocol'
import { describeRule } from '../lib/panel/allowed-writes'
import type { PanelStore } from '../lib/panel/store'

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

interface AllowCheckProps {
  name: string
  testId: string
  checked: boolean
  onCheck: (on: boolean) => void
  label: string
  hint: string
  kinds: string[]
  kindsTestId: string
}

function AllowCheck({ name, testId, checked, onCheck, label, hint, kinds, kindsTestId }: AllowCheckProps) {
  return (
    <label class="check" data-testid={testId}>
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onCheck(e.currentTarget.checked)} />
      <span>
        {label}
        <span class="hint muted">{hint}</span>
        <RuleList kinds={kinds} testId={kindsTestId} />
      </span>
    </label>
  )
}

/**
 * For writes the page tried to send: let requests like these through for the rest of the task, or always on their
 * site, each tick with the rules it would make.
 */
export function AllowChoices({ store, pending }: { store: PanelStore; pending: PendingConfirmation }) {
  const { t, task } = store
  // What ticking "allow like this" would let through, in the words the list of allowed writes uses.
  const kinds = [...new Set((pending.evidence?.requests ?? []).filter((r) => r.origin).map((r) => describeRule(writeRuleOf(r), t)))]
  if (pending.action.type !== 'release' || kinds.length === 0) return null
  return (
    <>
      <AllowCheck
        name="forTask"
        testId="allow-for-task"
        checked={task.allowForTask.value}
        onCheck={(on) => task.setAllowForTask(on)}
        label={t('confirm.forTask')}
        hint={t('confirm.forTaskHint')}
        kinds={kinds}
        kindsTestId="for-task-kinds"
      />
      <AllowCheck
        name="always"
        testId="always-allow"
        checked={task.alwaysAllow.value}
        onCheck={(on) => task.setAlwaysAllow(on)}
        label={t('confirm.always')}
        hint={t('confirm.alwaysHint')}
        kinds={kinds}
        kindsTestId="always-kinds"
      />
    </>
  )
}
