import { createError } from 'h3'
import { describe, expect, it } from 'vitest'
import { llmNotConfigured } from '../../server/lib/http/errors'
import { refusalLine } from '../../server/lib/http/refusal-line'

describe('refusalLine', () => {
  it('makes a missing LLM one plain line, without the query', () => {
    const error = llmNotConfigured()
    expect(refusalLine(error, 'LLM_NOT_CONFIGURED', 'POST', '/api/agent/start?x=secret')).toBe(
      `[tandem] refused POST /api/agent/start: LLM_NOT_CONFIGURED: ${error.message}`,
    )
  })

  it('leaves a real internal error to be logged in full', () => {
    expect(refusalLine(new Error('disk on fire') as never, 'INTERNAL', 'GET', '/api/agent/tasks')).toBeNull()
    expect(refusalLine(createError({ statusCode: 503, message: 'LLM_NOT_CONFIGURED' }), 'INTERNAL', 'GET', '/x')).toBeNull()
  })
})
