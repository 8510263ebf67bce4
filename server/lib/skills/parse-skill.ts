import { Skill } from '#protocol'

/** A SKILL.md that cannot be used; the message names the line or field to fix. */
export class SkillFormatError extends Error {}

// Line numbers in messages count from the top of SKILL.md: the opening --- is line 1.
const lineNo = (i: number) => i + 2

/** Splits `a, "b, c", d` at the commas outside quotes. */
function splitInline(inner: string, i: number): string[] {
  const items: string[] = []
  let current = ''
  let quote: string | undefined
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = undefined
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === ',') {
      items.push(current)
      current = ''
      continue
    }
    current += ch
  }
  if (quote) throw new SkillFormatError(`line ${lineNo(i)}: unclosed ${quote} in a list`)
  items.push(current)
  return items
}

/** A YAML scalar as the frontmatter uses it: quoted or bare strings, numbers, booleans, [inline, lists]. */
function scalar(raw: string, i: number): unknown {
  const v = raw.trim()
  if (v === '') return ''
  if (v.startsWith('[')) {
    if (!v.endsWith(']')) throw new SkillFormatError(`line ${lineNo(i)}: a list must close with ]`)
    const inner = v.slice(1, -1).trim()
    return inner ? splitInline(inner, i).map((item) => scalar(item, i)) : []
  }
  if (v.startsWith('"')) {
    try {
      return JSON.parse(v)
    } catch {
      throw new SkillFormatError(`line ${lineNo(i)}: a "quoted" value must end with " (escape inner quotes as \\")`)
    }
  }
  if (v.startsWith("'")) {
    if (!v.endsWith("'") || v.length < 2) throw new SkillFormatError(`line ${lineNo(i)}: a 'quoted' value must end with '`)
    return v.slice(1, -1).replace(/''/g, "'")
  }
  if (v === 'true' || v === 'false') return v === 'true'
  if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v)
  return v
}

function parseJson(value: string, i: number): unknown {
  try {
    return JSON.parse(value)
  } catch {
    throw new SkillFormatError(`line ${lineNo(i)}: a script step must be one JSON object on one line`)
  }
}

/**
 * Parses the YAML subset SKILL.md files use: `key: value`, `key: [a, b]`, block lists (`  - item`),
 * block text (`key: >` folded or `key: |` literal, then indented lines), `# comments`, and `script:` as
 * a block list of JSON objects, one `- {...}` a line. Anything else is an error naming its line, rather
 * than a guess: a skill that silently lost a risky step would be worse than one that does not load.
 */
export function parseFrontmatter(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const lines = text.split(/\r?\n/)
  let listKey: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (!line.trim() || line.trimStart().startsWith('#')) continue
    // `s`: a value may hold U+2028 or U+2029 as written, which `.` alone would not match.
    const item = /^\s*-\s+(.*)$/s.exec(line)
    if (item) {
      if (!listKey) throw new SkillFormatError(`line ${lineNo(i)}: a "- item" must follow "key:" on its own line`)
      const value = item[1].trim()
      ;(out[listKey] as unknown[]).push(value.startsWith('{') ? parseJson(value, i) : scalar(value, i))
      continue
    }
    const pair = /^([A-Za-z][\w-]*):(?:\s+(.*))?$/s.exec(line)
    if (!pair) throw new SkillFormatError(`line ${lineNo(i)}: expected "key: value", found "${line.trim().slice(0, 60)}"`)
    const [, key, rest = ''] = pair
    if (key in out) throw new SkillFormatError(`line ${lineNo(i)}: "${key}" is set twice`)
    listKey = undefined
    const value = rest.trim()
    if (value === '') {
      out[key] = []
      listKey = key
    } else if (value === '>' || value === '|') {
      const block: string[] = []
      while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]) || !lines[i + 1].trim())) block.push(lines[++i].trim())
      out[key] = value === '|' ? block.join('\n').trim() : block.join(' ').replace(/\s+/g, ' ').trim()
    } else {
      out[key] = scalar(value, i)
    }
  }
  return out
}

/** Splits SKILL.md into frontmatter and body and validates the frontmatter against the protocol. */
export function parseSkill(slug: string, source: string): Skill {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n([\s\S]*))?$/.exec(source.replace(/^\uFEFF/, ''))
  if (!match) throw new SkillFormatError('no frontmatter: the file must start with a --- line and close it with another')
  const frontmatter = parseFrontmatter(match[1])
  // Whose a skill is comes from the folder it was loaded from: a file cannot claim to be the person's own.
  if ('own' in frontmatter) throw new SkillFormatError('own: not a frontmatter field (a skill is the person\'s own when it is in their skills folder)')
  const parsed = Skill.safeParse({ ...frontmatter, slug, body: (match[2] ?? '').trim() })
  if (!parsed.success) {
    throw new SkillFormatError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(frontmatter)'}: ${issue.message}`).join('; '),
    )
  }
  return parsed.data
}
