import OpenAI from 'openai'
import type { H3Error } from 'h3'
import { apiError } from '../http/errors'

const MAX_MESSAGE = 500

/**
 * An LLM_ERROR that says what the provider said. The key is cut out of the message in case a provider echoes it
 * (some quote the Authorization header back in a 401).
 */
export function providerError(error: unknown, context: { model: string; timeoutMs: number; apiKey?: string; attempts: number }): H3Error {
  const status = (error as { status?: number }).status
  let message: string
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    message = `The model did not answer within ${Math.round(context.timeoutMs / 100) / 10} s (TANDEM_LLM_TIMEOUT_MS).`
  } else if (error instanceof OpenAI.APIConnectionError) {
    message = `The model provider could not be reached: ${causeOf(error)}. Check TANDEM_LLM_BASE_URL.`
  } else {
    const said = String((error as Error)?.message ?? error).replace(/^\d{3}\s+/, '')
    message = `The model provider failed${status ? ` (HTTP ${status})` : ''}: ${said}`
  }
  if (context.apiKey && context.apiKey.length >= 4) message = message.split(context.apiKey).join('[key]')
  if (message.length > MAX_MESSAGE) message = `${message.slice(0, MAX_MESSAGE)}…`
  return apiError('LLM_ERROR', message, { ...(status ? { status } : {}), model: context.model, attempts: context.attempts })
}

/** The innermost cause (the SDK wraps fetch's error, which wraps the socket's): "ECONNREFUSED", "ENOTFOUND"… */
function causeOf(error: Error): string {
  let deepest: { code?: string; message?: string; cause?: unknown } = error
  for (let i = 0; i < 5 && deepest.cause && typeof deepest.cause === 'object'; i++) deepest = deepest.cause as typeof deepest
  return deepest.code ?? deepest.message ?? error.message
}
