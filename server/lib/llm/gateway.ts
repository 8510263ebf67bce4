import OpenAI from 'openai'
import { providerError } from './provider-error'
import { modeFor, refusesFormat, responseFormat, weakerMode, type FormatMode } from './response-format'
import { backoffMs, isRetryable, sleep } from './retry'

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } }

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string | ContentPart[]
}

export interface JsonSchemaSpec {
  name: string
  schema: Record<string, unknown>
}

export interface LlmUsage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
}

export interface Completion {
  text: string
  /** The model that answered, as the provider names it. */
  model: string
  usage: LlmUsage
  latencyMs: number
  /** How JSON was asked for on the call that answered. */
  format: FormatMode
}

export interface LlmGateway {
  readonly model: string
  /** One answer from the model; throws an LLM_ERROR h3 error that carries the provider's message. */
  complete(request: { messages: ChatMessage[]; schema?: JsonSchemaSpec }): Promise<Completion>
}

export interface GatewayOptions {
  baseUrl: string
  apiKey?: string
  model: string
  /** Per call; default 60 s. */
  timeoutMs?: number
  /** Retries of retryable failures (429, 5xx, network); default 1. */
  maxRetries?: number
  /** First backoff; doubled each retry. */
  retryBaseMs?: number
}

/** Any OpenAI-compatible chat endpoint: OpenAI, DeepSeek, Qwen, Ollama, vLLM, LM Studio, llama.cpp. */
export function createLlmGateway(options: GatewayOptions): LlmGateway {
  const timeoutMs = options.timeoutMs ?? 60_000
  const maxRetries = options.maxRetries ?? 1
  const client = new OpenAI({
    baseURL: options.baseUrl,
    // Local servers need no key, but the SDK insists on one.
    apiKey: options.apiKey || 'not-needed',
    timeout: timeoutMs,
    // Retries are ours: the SDK would also retry a timeout, doubling the wait for an answer that is not coming.
    maxRetries: 0,
  })
  // Endpoints differ in which response formats they accept; learnt on the first refusal and kept for this gateway.
  let learned: FormatMode = 'json_schema'

  async function call(messages: ChatMessage[], mode: FormatMode, schema: JsonSchemaSpec | undefined) {
    return client.chat.completions.create({
      model: options.model,
      messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
      temperature: 0,
      ...responseFormat(mode, schema),
    })
  }

  return {
    model: options.model,
    async complete({ messages, schema }) {
      const started = performance.now()
      let retries = 0
      let attempts = 0
      for (;;) {
        const mode = modeFor(learned, schema)
        attempts++
        try {
          const reply = await call(messages, mode, schema)
          return {
            text: reply.choices?.[0]?.message?.content ?? '',
            model: reply.model || options.model,
            usage: {
              promptTokens: reply.usage?.prompt_tokens ?? 0,
              completionTokens: reply.usage?.completion_tokens ?? 0,
              totalTokens: reply.usage?.total_tokens ?? (reply.usage?.prompt_tokens ?? 0) + (reply.usage?.completion_tokens ?? 0),
            },
            latencyMs: Math.round(performance.now() - started),
            format: mode,
          }
        } catch (error) {
          const status = (error as { status?: number }).status
          const weaker = weakerMode(mode)
          if (weaker && refusesFormat(status, String((error as Error)?.message ?? ''))) {
            learned = weaker
            continue
          }
          if (retries < maxRetries && isRetryable(error)) {
            await sleep(backoffMs(retries, error, options.retryBaseMs))
            retries++
            continue
          }
          throw providerError(error, { model: options.model, timeoutMs, apiKey: options.apiKey, attempts })
        }
      }
    },
  }
}
