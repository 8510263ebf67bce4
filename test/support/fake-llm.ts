import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { appendOutput } from './outputs'

export interface FakeRequest {
  model: string
  messages: { role: string; content: unknown }[]
  response_format?: { type: string; json_schema?: unknown }
  /** The Authorization header as sent. */
  authorization?: string
  path: string
  /** The whole prompt as one string (images included as their data URLs), for assertions. */
  text: string
}

/**
 * What a rule answers: text for the assistant (any text: malformed, fenced, <think>…), an HTTP error with the
 * provider's message, silence (for timeouts), or text after a delay.
 */
export type FakeAnswer =
  | string
  | { status: number; message: string; headers?: Record<string, string> }
  | { hang: true }
  | { text: string; delayMs: number }

/** Chooses an answer from the request and its index among all requests; undefined passes to the next rule. */
export type FakeRule = (request: FakeRequest, index: number) => FakeAnswer | undefined

export interface FakeLlm {
  /** The base URL, as TANDEM_LLM_BASE_URL takes it. */
  url: string
  requests: FakeRequest[]
  close(): Promise<void>
}

type Part = { type: string; text?: string; image_url?: { url: string } }
const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? (content as Part[]).map((p) => p.text ?? p.image_url?.url ?? '').join('\n')
      : JSON.stringify(content)

/**
 * A real OpenAI-compatible HTTP server (POST /v1/chat/completions and /chat/completions) whose answers are
 * chosen from the prompt it receives, recording every request. Rules are tried in order; the first answer wins.
 * Every prompt also goes to the run's output folder (prompts/), where the output scan reads what models were sent.
 */
export async function startFakeLlm(rules: FakeRule | FakeRule[]): Promise<FakeLlm> {
  const list = Array.isArray(rules) ? rules : [rules]
  const requests: FakeRequest[] = []
  let promptFile = ''
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const path = (req.url ?? '').split('?')[0]
    if (req.method !== 'POST' || !['/v1/chat/completions', '/chat/completions'].includes(path)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}` } }))
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString())
    const request: FakeRequest = {
      ...body,
      path,
      authorization: req.headers.authorization,
      text: body.messages.map((m: { content: unknown }) => textOf(m.content)).join('\n'),
    }
    requests.push(request)
    // The messages as the model got them; the Authorization header is the one place the API key belongs.
    appendOutput(promptFile, JSON.stringify({ path, model: body.model, messages: body.messages }))
    const index = requests.length - 1
    let reply: FakeAnswer | undefined
    for (const rule of list) if ((reply = rule(request, index)) !== undefined) break
    reply ??= { status: 500, message: `the fake model has no rule for request ${index}` }
    if (typeof reply === 'object' && 'hang' in reply) return // never answers; close() drops the connection
    if (typeof reply === 'object' && 'status' in reply) {
      res
        .writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
        .end(JSON.stringify({ error: { message: reply.message, type: 'fake_error', code: null } }))
      return
    }
    let text = reply as string
    if (typeof reply === 'object') {
      await new Promise((r) => setTimeout(r, reply.delayMs))
      text = reply.text
    }
    const promptTokens = Math.ceil(request.text.length / 4)
    const completionTokens = Math.ceil(text.length / 4)
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      }),
    )
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  promptFile = `prompts/fake-llm-${process.pid}-${port}.jsonl`
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}

/** The model's answer as DESIGN.md shapes it. */
export const answer = (actions: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ thinking: 't', evaluation_previous_goal: 'ok', memory: 'm', next_goal: 'g', actions, ...extra })

/** The <untrusted_page> block of the latest prompt in a request ('' when there is none). */
export const pageOf = (r: FakeRequest) => /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(textOf(r.messages.at(-1)?.content ?? ''))?.[0] ?? ''

/** The goal of the task a request plans for. */
export const goalOf = (r: FakeRequest) => /<goal>\n([\s\S]*?)\n<\/goal>/.exec(r.text)?.[1] ?? ''
