import type { Skill, SkillSummary } from '#protocol'

const EXCERPT = 200

/** The first prose of an SOP as plain text: headings skipped, list and emphasis marks dropped. */
export function excerptOf(body: string): string {
  const text = body
    .split(/\r?\n/)
    .filter((line) => line.trim() && !/^\s*#/.test(line))
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').replace(/[`*_]/g, '').trim())
    .join(' ')
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1).trimEnd()}…` : text
}

export function toSummary({ script, body, ...rest }: Skill): SkillSummary {
  return { ...rest, excerpt: excerptOf(body), scripted: Boolean(script?.length) }
}
