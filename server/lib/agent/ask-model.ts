import { z } from 'zod'
import { AgentOutput } from '#protocol'
import type { ChatMessage, Completion, JsonSchemaSpec, LlmGateway } from '../llm/gateway'
import { parseAgentOutput } from './parse-output'
import { cut } from './prompt/tokens'

export type Attempt =
  | { ok: true; output: AgentOutput; repaired: boolean }
  | { ok: false; code: 'LLM_BAD_OUTPUT' | 'LLM_ERROR'; error: string; raw?: string }

/** AgentOutput as a JSON schema, for endpoints that constrain their answer to one. */
export const AGENT_OUTPUT_SCHEMA: JsonSchemaSpec | undefined = (() => {
  try {
    return { name: 'agent_output', schema: z.toJSONSchema(AgentOutput, { unrepresentable: 'any' }) as Record<string, unknown> }
  } catch {
    return undefined
  }
})()

/** One call, and one repair round that shows the model what was wrong with its answer; every call lands in `calls`. */
export async function askModel(gateway: LlmGateway, messages: ChatMessage[], calls: Completion[]): Promise<Attempt> {
  try {
    const first = await gateway.complete({ messages, schema: AGENT_OUTPUT_SCHEMA })
    calls.push(first)
    const parsed = parseAgentOutput(first.text)
    if (parsed.ok) return { ...parsed, repaired: false }
    const repair = await gateway.complete({
      messages: [
        ...messages,
        { role: 'assistant', content: cut(first.text, 4000) },
        {
          role: 'user',
          content: `That answer is not valid: ${parsed.error}\nAnswer again with exactly one JSON object in the required format, with 1 to 3 actions.`,
        },
      ],
      schema: AGENT_OUTPUT_SCHEMA,
    })
    calls.push(repair)
    const repaired = parseAgentOutput(repair.text)
    return repaired.ok ? { ...repaired, repaired: true } : { ok: false, code: 'LLM_BAD_OUTPUT', error: repaired.error, raw: cut(repair.text, 2000) }
  } catch (error) {
    return { ok: false, code: 'LLM_ERROR', error: String((error as Error)?.message ?? error) }
  }
}
