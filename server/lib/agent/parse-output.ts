import { AgentOutput } from '#protocol'

export type ParsedOutput = { ok: true; output: AgentOutput } | { ok: false; error: string }

/** The first balanced {...} in `text`, minding strings, or undefined. */
function firstObject(text: string): string | undefined {
  const start = text.indexOf('{')
  if (start < 0) return undefined
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

/**
 * Reads the model's answer leniently: <think> blocks, ```json fences and prose around the object are
 * tolerated; the object itself must satisfy the AgentOutput contract.
 */
export function parseAgentOutput(raw: string): ParsedOutput {
  const text = raw.replace(/<think>[\s\S]*?<\/think>/gi, '').replace(/^[\s\S]*<\/think>/i, '')
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1]
  const candidate = firstObject(fenced ?? text) ?? firstObject(text)
  if (!candidate) return { ok: false, error: 'The answer contains no JSON object.' }
  let json: unknown
  try {
    json = JSON.parse(candidate)
  } catch (error) {
    return { ok: false, error: `The JSON object does not parse: ${(error as Error).message}` }
  }
  const parsed = AgentOutput.safeParse(json)
  if (!parsed.success) {
    return { ok: false, error: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') }
  }
  return { ok: true, output: parsed.data }
}
