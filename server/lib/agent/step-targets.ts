import type { ScriptStep, Target } from '#protocol'
import { actionSpec } from '#protocol'

type Targeted = { target?: Target; selector?: string; text?: string; index?: number }

/**
 * The ways a script step names its element, in the order a replay tries them: role and accessible name
 * (survives a renamed class or a moved button), then the visible text, then the CSS selector as the last resort.
 * A `type` step's text is what it types, so it never names the element.
 */
export function targetsOf(step: ScriptStep): Target[] {
  const s = step as ScriptStep & Targeted
  const spec = actionSpec(step.type)
  if (!spec || spec.target === 'none') return []
  const out: Target[] = []
  if (s.target) out.push(s.target)
  if (s.text !== undefined && spec.textNamesTarget && !out.some((t) => t.by === 'text' && t.value === s.text)) out.push({ by: 'text', value: s.text })
  if (s.selector !== undefined) out.push({ by: 'selector', value: s.selector })
  return out
}

/** The step naming its element by one of its targets only: what the engine hands the page for that try. */
export function withOnlyTarget(step: ScriptStep, target: Target): ScriptStep {
  const { target: _t, selector: _s, index: _i, ...rest } = step as ScriptStep & Targeted
  const spec = actionSpec(step.type)
  const base = { ...rest } as Record<string, unknown>
  if (spec?.textNamesTarget) delete base.text
  return { ...base, target } as ScriptStep
}

/**
 * Errors that say the element is not where the recording found it (not that the step was refused or failed after
 * acting). A step that acted and changed nothing (a choice the element did not take) names the wrong element too,
 * and left nothing to undo.
 */
export const TARGET_GONE = new Set(['TARGET_NOT_FOUND', 'TARGET_STALE', 'TARGET_NOT_INTERACTABLE', 'ACTION_NO_EFFECT'])
