import type { Action, AllowScope, HeldRequest as HeldRequestType, WriteAllowRule } from '#protocol'
import { HeldRequest, MAX_ALLOWED_WRITES, MAX_TASK_ALLOWED_WRITES, sameRule, writeRuleOf } from '#protocol'
import type { TaskRecord } from './task-record'

const unique = (rules: readonly WriteAllowRule[]) => rules.filter((rule, i) => rules.findIndex((other) => sameRule(other, rule)) === i)

/**
 * The kinds of the requests a release lets go on: what "allow requests like this" allows. Only a release has
 * requests the person saw; any other action has none, and asks again next time.
 */
export function rulesOfRelease(action: Action): WriteAllowRule[] {
  if (action.type !== 'release') return []
  const requests = Array.isArray(action.params.requests) ? action.params.requests : []
  return unique(
    requests.flatMap((request) => {
      const parsed = HeldRequest.safeParse(request)
      return parsed.success && parsed.data.origin ? [writeRuleOf(parsed.data)] : []
    }),
  )
}

/**
 * "Allow requests like this for the rest of this task": the rules are kept on the task, so they end with it and
 * reach no other task. The newest are kept when there are too many: the person just chose those.
 */
export function allowForTask(task: TaskRecord, rules: readonly WriteAllowRule[]) {
  const kept = unique([...(task.allowWrites ?? []), ...rules])
  task.allowWrites = kept.slice(-MAX_TASK_ALLOWED_WRITES)
}

/**
 * The rules an action of this task goes out with: the task's own first, so the site's many never crowd them out,
 * then the site's, within what an action carries.
 */
export function allowWritesFor(task: Pick<TaskRecord, 'allowWrites'>, siteRules: readonly WriteAllowRule[]): WriteAllowRule[] {
  return unique([...(task.allowWrites ?? []), ...siteRules]).slice(0, MAX_ALLOWED_WRITES)
}

/**
 * Which rule let a request through, and whose it is. The site's rule is named when both would have: it is the
 * one that outlives the task. Neither any more (removed while the step ran): the rule only, the scope unknown.
 */
export function allowedByWhich(
  request: HeldRequestType,
  task: Pick<TaskRecord, 'allowWrites'>,
  siteRules: readonly WriteAllowRule[],
): { rule?: WriteAllowRule; scope?: AllowScope } {
  if (!request.origin) return {}
  const rule = writeRuleOf(request)
  const scope: AllowScope | undefined = siteRules.some((r) => sameRule(r, rule))
    ? 'site'
    : task.allowWrites?.some((r) => sameRule(r, rule))
      ? 'task'
      : undefined
  return { rule, ...(scope ? { scope } : {}) }
}
