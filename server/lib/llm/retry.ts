import OpenAI from 'openai'

/** Rate limits, server errors and dropped connections may pass; a timeout already cost the whole budget. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return false
  if (error instanceof OpenAI.APIConnectionError) return true
  const status = (error as { status?: unknown }).status
  return typeof status === 'number' && (status === 408 || status === 429 || status >= 500)
}

const MAX_WAIT_MS = 20_000

/** Exponential backoff with jitter, or what the provider asked for in Retry-After (bounded). */
export function backoffMs(attempt: number, error: unknown, baseMs = 500): number {
  const headers = (error as { headers?: Headers }).headers
  const retryAfter = headers && typeof headers.get === 'function' ? headers.get('retry-after') : null
  if (retryAfter) {
    const seconds = Number(retryAfter)
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now()
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_WAIT_MS)
  }
  const exp = baseMs * 2 ** attempt
  return Math.min(exp / 2 + Math.random() * (exp / 2), MAX_WAIT_MS)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
