import OpenAI from 'openai'
import { apiError } from '../http/errors'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string | OpenAI.Chat.ChatCompletionContentPart[]
}

export interface Completion {
  text: string
  model: string
  usage: { promptTokens: number; completionTokens: number; totalTokens: number }
  latencyMs: number
}

export interface LlmGateway {
  readonly model: string
  complete(request: { messages: ChatMessage[]; schema?: { name: string; schema: Record<string, unknown> } }): Promise<Completion>
}

export interface GatewayOptions {
  baseUrl: string
  apiKey?: string
  model: string
  timeoutMs?: number
  /** Retries of retryable failures (429, 5xx, network), with the SDK's backoff. */
  maxRetries?: number
}

type Format = 'json_schema' | 'json_object' | 'none'
const FORMATS: Format[] = ['json_schema', 'json_object', 'none']

/** Any OpenAI-compatible chat endpoint (OpenAI, DeepSeek, Qwen, Ollama, vLLM, LM Studio). */
export function createLlmGateway(options: GatewayOptions): LlmGateway {
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers need no key, but the SDK insists on one.
    apiKey: options.apiKey || 'not-needed',
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 1,
  })
  // Providers differ in which response formats they accept; learn it once per server run.
  let format: Format = 'json_schema'

  const responseFormat = (f: Format, schema?: { name: string; schema: Record<string, unknown> }) =>
    f === 'json_schema' && schema
      ? { response_format: { type: 'json_schema' as const, json_schema: { name: schema.name, schema: schema.schema, strict: false } } }
      : f === 'json_object' || (f === 'json_schema' && !schema)
        ? { response_format: { type: 'json_object' as const } }
        : {}

  return {
    model: options.model,
    async complete({ messages, schema }) {
      const started = performance.now()
      for (;;) {
        try {
          const reply = await client.chat.completions.create({
            model: options.model,
            messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
            temperature: 0,
            ...responseFormat(format, schema),
          })
          const text = reply.choices[0]?.message?.content ?? ''
          return {
            text,
            model: reply.model || options.model,
            usage: {
              promptTokens: reply.usage?.prompt_tokens ?? 0,
              completionTokens: reply.usage?.completion_tokens ?? 0,
              totalTokens: reply.usage?.total_tokens ?? 0,
            },
            latencyMs: Math.round(performance.now() - started),
          }
        } catch (error) {
          const status = (error as { status?: number }).status
          const message = String((error as Error).message ?? error)
          const next = FORMATS[FORMATS.indexOf(format) + 1]
          if (status === 400 && next && /response_format|json_schema|json_object|format/i.test(message)) {
            format = next
            continue
          }
          const timedOut = error instanceof OpenAI.APIConnectionTimeoutError
          throw apiError(
            'LLM_ERROR',
            timedOut
              ? `The model did not answer within ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s.`
              : `The model provider failed${status ? ` (${status})` : ''}: ${message.slice(0, 500)}`,
            { status, model: options.model },
          )
        }
      }
    },
  }
}
