import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeRequest {
  model: string
  messages: { role: string; content: unknown }[]
  response_format?: unknown
  /** The whole prompt as one string, for assertions. */
  text: string
}

/** What a rule answers: text for the assistant, an HTTP error, or silence (for timeouts). */
export type FakeAnswer = string | { status: number; message: string } | { hang: true }

/**
 * A real OpenAI-compatible HTTP server whose answers are chosen from the prompt it receives, recording every
 * request. Rules are tried in order; the first that returns an answer wins.
 */
export async function startFakeLlm(rule: (request: FakeRequest, index: number) => FakeAnswer) {
  const requests: FakeRequest[] = []
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url ?? '')) {
      res.writeHead(404).end()
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString())
    const request: FakeRequest = {
      ...body,
      text: body.messages.map((m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n'),
    }
    requests.push(request)
    const answer = rule(request, requests.length - 1)
    if (typeof answer === 'object' && 'hang' in answer) return // never answers
    if (typeof answer === 'object') {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: answer.message, type: 'fake_error' } }))
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
        usage: { prompt_tokens: Math.ceil(request.text.length / 4), completion_tokens: Math.ceil(answer.length / 4), total_tokens: Math.ceil((request.text.length + answer.length) / 4) },
      }),
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()) }),
  }
}

/** The model's answer as DESIGN.md shapes it. */
export const answer = (actions: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ thinking: 't', evaluation_previous_goal: 'ok', memory: 'm', next_goal: 'g', actions, ...extra })

