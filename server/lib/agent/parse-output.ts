import { AgentOutput } from '#protocol'

export type ParsedOutput = { ok: true; output: AgentOutput } | { ok: false; error: string }

/** The balanced {...} starting at `start`, minding strings and escapes, or undefined. */
function objectAt(text: string, start: number): string | undefined {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return undefined
}

/** Reasoning models think out loud first; an unclosed block means the answer never came. */
export const stripThinking = (raw: string) =>
  raw.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').replace(/^[\s\S]*<\/think(?:ing)?>/i, '')

/**
 * The JSON value a model meant, from text that may wrap it in a ```json fence or prose: the first object that
 * parses, preferring one inside a fence. `{ found: false }` says whether there was an object at all.
 */
export function findJsonObject(raw: string, prefer?: (value: Record<string, unknown>) => boolean): { found: true; value: Record<string, unknown> } | { found: false; parseError?: string } {
  const text = stripThinking(raw)
  const fences = [...text.matchAll(/```[a-zA-Z]*\s*([\s\S]*?)```/g)].map((m) => m[1])
  let parseError: string | undefined
  let fallback: Record<string, unknown> | undefined
  for (const source of [...fences, text]) {
    for (let i = source.indexOf('{'); i >= 0; i = source.indexOf('{', i + 1)) {
      const candidate = objectAt(source, i)
      if (!candidate) {
        parseError ??= 'the object is not closed'
        break
      }
      try {
        const value = JSON.parse(candidate) as unknown
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          const object = value as Record<string, unknown>
          if (!prefer || prefer(object)) return { found: true, value: object }
          fallback ??= object
          i += candidate.length - 1
        }
      } catch (error) {
        parseError ??= (error as Error).message
      }
    }
  }
  // A broken object that may have been the answer says more than a stray one that parsed.
  return fallback && !parseError ? { found: true, value: fallback } : { found: false, parseError }
}

/**
 * Reads the model's answer leniently: <think> blocks, ```json fences and prose around the object are
 * tolerated; the object itself must satisfy the AgentOutput contract. Errors are written for the model to fix.
 */
export function parseAgentOutput(raw: string): ParsedOutput {
  const found = findJsonObject(raw, (v) => 'actions' in v)
  if (!found.found) {
    return {
      ok: false,
      error: found.parseError ? `The JSON object does not parse: ${found.parseError}.` : 'The answer contains no JSON object.',
    }
  }
  const parsed = AgentOutput.safeParse(found.value)
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') }
  }
  return { ok: true, output: parsed.data }
}
