import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer } from 'node:net'
import { createLlmGateway } from '../../server/lib/llm/gateway'
import { answer, startFakeLlm, type FakeLlm, type FakeRequest } from '../support/fake-llm'

const KEY = 'sk-test-0123456789abcdef'
const user = (text: string) => [{ role: 'user' as const, content: text }]
const schema = { name: 'out', schema: { type: 'object', properties: { actions: { type: 'array' } } } }

// Each test names its scenario in the prompt; the fake model answers by it and counts attempts per scenario.
const attempts = new Map<string, number>()
const scenario = (r: FakeRequest) => /^\[(\w+)\]/.exec(String(r.messages.at(-1)?.content))?.[1] ?? ''
let fake: FakeLlm
beforeAll(async () => {
  fake = await startFakeLlm((r) => {
    const name = scenario(r)
    const n = (attempts.get(name) ?? 0) + 1
    attempts.set(name, n)
    switch (name) {
      case 'ok':
        return answer([{ type: 'back' }])
      case 'flaky':
        return n === 1 ? { status: 429, message: 'slow down', headers: { 'retry-after': '0' } } : 'second time lucky'
      case 'down':
        return { status: 503, message: 'upstream exploded' }
      case 'bad':
        return { status: 400, message: 'messages[0] is malformed' }
      case 'leaky':
        return { status: 401, message: `Incorrect API key provided: ${KEY}` }
      case 'slow':
        return { hang: true }
      case 'noschema':
        // A server that knows only json_object, and one that knows no response_format at all.
        if (r.response_format?.type === 'json_schema') return { status: 400, message: "response_format type 'json_schema' is not supported" }
        return `format=${r.response_format?.type ?? 'none'}`
      case 'noformat':
        if (r.response_format) return { status: 400, message: 'Unrecognized request argument supplied: response_format' }
        return 'format=none'
      default:
        return undefined
    }
  })
})
afterAll(() => fake?.close())

const gateway = (overrides: Partial<Parameters<typeof createLlmGateway>[0]> = {}) =>
  createLlmGateway({ baseUrl: fake.url, apiKey: KEY, model: 'fake-model', timeoutMs: 1000, retryBaseMs: 10, ...overrides })
const requestsOf = (name: string) => fake.requests.filter((r) => scenario(r) === name)

describe('the LLM gateway', () => {
  it('calls the chat completions endpoint with the key and returns text, usage and latency', async () => {
    const reply = await gateway().complete({ messages: user('[ok] go'), schema })
    expect(JSON.parse(reply.text).actions).toEqual([{ type: 'back' }])
    expect(reply.model).toBe('fake-model')
    expect(reply.usage.promptTokens).toBeGreaterThan(0)
    expect(reply.usage.totalTokens).toBe(reply.usage.promptTokens + reply.usage.completionTokens)
    expect(reply.latencyMs).toBeGreaterThanOrEqual(0)
    const sent = requestsOf('ok')[0]
    expect(sent.authorization).toBe(`Bearer ${KEY}`)
    expect(sent.path).toBe('/v1/chat/completions')
    expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'out', schema: schema.schema, strict: false } })
  })

  it('asks for a JSON object when there is no schema', async () => {
    await gateway().complete({ messages: user('[ok] no schema') })
    expect(requestsOf('ok').at(-1)!.response_format).toEqual({ type: 'json_object' })
  })

  it('retries a 429 once, after the wait the provider asked for', async () => {
    const reply = await gateway().complete({ messages: user('[flaky] go') })
    expect(reply.text).toBe('second time lucky')
    expect(requestsOf('flaky')).toHaveLength(2)
  })

  it("gives up after one retry of a 5xx, with the provider's message and code LLM_ERROR", async () => {
    const error = await gateway().complete({ messages: user('[down] go') }).catch((e) => e)
    expect(error.statusCode).toBe(502)
    expect(error.data.code).toBe('LLM_ERROR')
    expect(error.message).toContain('upstream exploded')
    expect(error.message).toContain('503')
    expect(requestsOf('down')).toHaveLength(2)
  })

  it('does not retry a request the provider refused', async () => {
    const error = await gateway().complete({ messages: user('[bad] go') }).catch((e) => e)
    expect(error.data.code).toBe('LLM_ERROR')
    expect(error.message).toContain('messages[0] is malformed')
    expect(requestsOf('bad')).toHaveLength(1)
  })

  it('never repeats the key, even when the provider echoes it', async () => {
    const error = await gateway().complete({ messages: user('[leaky] go') }).catch((e) => e)
    expect(error.message).toContain('Incorrect API key provided')
    expect(error.message).not.toContain(KEY)
    expect(JSON.stringify(error.data)).not.toContain(KEY)
  })

  it('times out without retrying: a model that did not answer in time will not answer faster', async () => {
    const started = Date.now()
    const error = await gateway({ timeoutMs: 300 }).complete({ messages: user('[slow] go') }).catch((e) => e)
    expect(error.data.code).toBe('LLM_ERROR')
    expect(error.message).toMatch(/did not answer within 0.3 s/)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(requestsOf('slow')).toHaveLength(1)
  })

  it('reports an unreachable endpoint', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number }
        s.close(() => resolve(port))
      })
    })
    const error = await gateway({ baseUrl: `http://127.0.0.1:${port}/v1`, retryBaseMs: 1 }).complete({ messages: user('[ok] go') }).catch((e) => e)
    expect(error.data.code).toBe('LLM_ERROR')
    expect(error.message).toMatch(/could not be reached.*ECONNREFUSED/)
  })

  it('falls back from json_schema to json_object when the endpoint refuses it, and remembers', async () => {
    const g = gateway()
    expect((await g.complete({ messages: user('[noschema] 1'), schema })).text).toBe('format=json_object')
    expect((await g.complete({ messages: user('[noschema] 2'), schema })).text).toBe('format=json_object')
    expect(requestsOf('noschema').map((r) => r.response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object'])
  })

  it('falls back to no response format at all, and remembers', async () => {
    const g = gateway()
    const first = await g.complete({ messages: user('[noformat] 1'), schema })
    expect(first.text).toBe('format=none')
    expect(first.format).toBe('none')
    await g.complete({ messages: user('[noformat] 2') })
    expect(requestsOf('noformat').map((r) => r.response_format?.type ?? 'none')).toEqual(['json_schema', 'json_object', 'none', 'none'])
  })
})
