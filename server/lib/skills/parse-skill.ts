import { Skill } from '#protocol'

export class SkillFormatError extends Error {}

/** A YAML scalar as the frontmatter uses it: quoted or bare strings, numbers, booleans, [inline, lists]. */
function scalar(raw: string): unknown {
  const v = raw.trim()
  if (v === '') return ''
  if (v.startsWith('[') && v.endsWith(']')) {
    const inner = v.slice(1, -1).trim()
    return inner ? inner.split(',').map((item) => scalar(item)) : []
  }
  if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) {
    if (v.startsWith('"')) return JSON.parse(v)
    return v.slice(1, -1).replace(/''/g, "'")
  }
  if (v === 'true' || v === 'false') return v === 'true'
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v)
  return v
}

/**
 * Parses the frontmatter subset SKILL.md files use: `key: value`, `key: [a, b]`, block lists of scalars
 * (`- item`), and `script:` as a block list of JSON objects (one `- {...}` per line).
 */
export function parseFrontmatter(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  let listKey: string | undefined
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim() || line.trimStart().startsWith('#')) return
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line)
    if (item && listKey) {
      const value = item[1].trim()
      ;(out[listKey] as unknown[]).push(value.startsWith('{') ? parseJson(value, i) : scalar(value))
      return
    }
    const pair = /^([A-Za-z][\w-]*):(.*)$/.exec(line)
    if (!pair) throw new SkillFormatError(`line ${i + 2}: expected "key: value"`)
    const [, key, rest] = pair
    if (rest.trim() === '') {
      out[key] = []
      listKey = key
    } else {
      out[key] = scalar(rest)
      listKey = undefined
    }
  })
  return out
}

function parseJson(value: string, i: number): unknown {
  try {
    return JSON.parse(value)
  } catch {
    throw new SkillFormatError(`line ${i + 2}: a script step must be one JSON object`)
  }
}

/** Splits SKILL.md into frontmatter and body and validates the frontmatter. */
export function parseSkill(slug: string, source: string): Skill {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source)
  if (!match) throw new SkillFormatError('no frontmatter: the file must start with a --- block')
  const parsed = Skill.safeParse({ ...parseFrontmatter(match[1]), slug, body: match[2].trim() })
  if (!parsed.success) {
    throw new SkillFormatError(parsed.error.issues.map((i) => `${i.path.join('.') || '(frontmatter)'}: ${i.message}`).join('; '))
  }
  return parsed.data
}
