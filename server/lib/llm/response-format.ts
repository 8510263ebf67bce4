import type { JsonSchemaSpec } from './gateway'

/** How the gateway asks for JSON: a schema, any JSON object, or only the prompt's instructions. */
export type FormatMode = 'json_schema' | 'json_object' | 'none'

const ORDER: FormatMode[] = ['json_schema', 'json_object', 'none']

/** The strongest mode that applies to this request, given what the endpoint is known to accept. */
export function modeFor(learned: FormatMode, schema: JsonSchemaSpec | undefined): FormatMode {
  return learned === 'json_schema' && !schema ? 'json_object' : learned
}

export const weakerMode = (mode: FormatMode): FormatMode | undefined => ORDER[ORDER.indexOf(mode) + 1]

/** The request fields for a mode (`strict: false`: providers that enforce schemas strictly reject optional keys). */
export function responseFormat(mode: FormatMode, schema: JsonSchemaSpec | undefined) {
  if (mode === 'json_schema' && schema) {
    return { response_format: { type: 'json_schema' as const, json_schema: { name: schema.name, schema: schema.schema, strict: false } } }
  }
  if (mode === 'json_object') return { response_format: { type: 'json_object' as const } }
  return {}
}

// Wording seen from OpenAI, vLLM, Ollama, LM Studio, DeepSeek and llama.cpp when a response format is refused.
const REFUSAL = /response_format|json_schema|json_object|structured output|guided|grammar|format.*(not supported|unsupported|invalid)|(not supported|unsupported).*format/i

/** A 400/422 that says the endpoint does not accept the response format we sent. */
export function refusesFormat(status: number | undefined, message: string): boolean {
  return (status === 400 || status === 422) && REFUSAL.test(message)
}
