import type { ScriptStep, SkillParameter } from '#protocol'

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g

/** The declared parameters the person left empty, in the skill's order. */
export function missingParameters(declared: SkillParameter[] | undefined, given: Record<string, string> | undefined): SkillParameter[] {
  return (declared ?? []).filter((p) => !given?.[p.name]?.trim())
}

/**
 * The script with each `{{name}}` of a declared parameter replaced by the person's value for this run.
 * `{{secret:NAME}}` is left for the extension's vault, and a `{{word}}` the skill does not declare stays as written.
 */
export function fillParameters(script: ScriptStep[], declared: SkillParameter[] | undefined, given: Record<string, string> | undefined): ScriptStep[] {
  const names = new Set((declared ?? []).map((p) => p.name))
  if (!names.size) return script
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(PLACEHOLDER, (whole, name: string) => (names.has(name) && given?.[name] !== undefined ? given[name]! : whole))
    if (Array.isArray(value)) return value.map(fill)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]))
    return value
  }
  return script.map((step) => fill(step) as ScriptStep)
}
