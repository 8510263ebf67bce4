import type { H3Error } from 'h3'

/** Refusals Tandem answers on purpose with a 5xx status: the setup says no, nothing broke. */
const EXPECTED = new Set(['LLM_NOT_CONFIGURED'])

/**
 * One plain log line for an expected refusal (no stack, no error object to unfold); null for anything else, whose
 * details the log must keep in full. The path is logged without its query, which may carry what the person typed.
 */
export function refusalLine(error: Partial<H3Error>, code: string, method: string, path: string): string | null {
  const own = (error.data as { code?: unknown } | undefined)?.code
  if (own !== code || !EXPECTED.has(code)) return null
  return `[tandem] refused ${method} ${path.split('?')[0]}: ${code}: ${error.message ?? ''}`.trim()
}
