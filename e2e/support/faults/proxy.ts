import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One exchange the proxy saw, with the server's answer once it came. */
export interface Exchange {
  method: string
  path: string
  body: string
  json: any
  at: number
  response?: { status: number; json: any; at: number }
  /** When the client closed the connection while the proxy held the exchange: it gave up waiting. */
  abandonedAt?: number
}

/** An exchange stopped at the proxy: the request before the server got it, or the answer before the extension did. */
export interface Held {
  exchange: Exchange
  /** Lets it go on its way. */
  release(): void
  /** Cuts the connection: the request never arrives, or the answer is lost on the wire. */
  drop(): void
  /** Settles when the client closes the connection while it is held (its own deadline gave up), with the time. */
  abandoned: Promise<number>
}

export interface HoldRule {
  held: Promise<Held>
  /** Stops waiting for a match; a match already held is released. */
  cancel(): void
}

export interface FaultProxy {
  url: string
  exchanges: Exchange[]
  /** Holds the first request that matches, before the server sees it. */
  holdRequest(match: (exchange: Exchange) => boolean): HoldRule
  /** Holds the first answer that matches, after the server gave it and before the extension gets it. */
  holdResponse(match: (exchange: Exchange) => boolean): HoldRule
  /** While down, every connection is cut as it opens, and those open are cut now: the server is unreachable. */
  setDown(down: boolean): void
  /**
   * While hung, the proxy takes every request and answers none: a new request is held before the server sees it,
   * and an answer the server gives meanwhile is held before the extension gets it. Switched off, every connection
   * it held is cut, as when whatever hung (a proxy, a laptop's sleep) lets go.
   */
  setHung(hung: boolean): void
  close(): Promise<void>
}

interface Rule {
  at: 'request' | 'response'
  match: (exchange: Exchange) => boolean
  take: (held: Held) => void
}

const parse = (text: string) => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

async function readAll(stream: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * A loopback HTTP proxy in front of the Tandem server, for the extension's serverUrl: it records every exchange
 * and can hold, drop or refuse them, which puts a fault at an exact point of the protocol without touching the
 * extension.
 */
export async function startFaultProxy(target: () => string): Promise<FaultProxy> {
  const exchanges: Exchange[] = []
  const rules: Rule[] = []
  const sockets = new Set<Socket>()
  let down = false
  let hung = false
  const stuck = new Set<Socket>()
  /** Keeps the exchange's connection open with no answer, until the hang ends (or the client gives up). */
  function stick(res: ServerResponse) {
    const socket = res.socket
    if (!socket || socket.destroyed) return
    stuck.add(socket)
    socket.once('close', () => stuck.delete(socket))
  }

  function hold(at: Rule['at'], match: Rule['match']): HoldRule {
    let take!: (held: Held) => void
    let taken: Held | undefined
    const held = new Promise<Held>((resolve) => (take = resolve))
    const rule: Rule = { at, match, take: (h) => ((taken = h), take(h)) }
    rules.push(rule)
    return {
      held,
      cancel() {
        const index = rules.indexOf(rule)
        if (index !== -1) rules.splice(index, 1)
        taken?.release()
      },
    }
  }

  /** Waits for the rule that claims this exchange, if any, to let it go; false when it was dropped. */
  function gate(at: Rule['at'], exchange: Exchange, res: ServerResponse): Promise<boolean> {
    const index = rules.findIndex((r) => r.at === at && r.match(exchange))
    if (index === -1) return Promise.resolve(true)
    const [rule] = rules.splice(index, 1)
    return new Promise((resolve) => {
      let settled = false
      const once = (value: boolean) => () => {
        if (settled) return
        settled = true
        if (!value) res.socket?.destroy()
        resolve(value)
      }
      const abandoned = new Promise<number>((gaveUp) =>
        res.once('close', () => {
          if (settled || res.writableEnded) return
          exchange.abandonedAt = Date.now()
          gaveUp(exchange.abandonedAt)
        }),
      )
      rule.take({ exchange, release: once(true), drop: once(false), abandoned })
    })
  }

  const server = createServer(async (req, res) => {
    const body = await readAll(req)
    const exchange: Exchange = { method: req.method ?? 'GET', path: req.url ?? '/', body, json: parse(body), at: Date.now() }
    exchanges.push(exchange)
    if (hung) return stick(res)
    if (!(await gate('request', exchange, res))) return
    const upstream = new URL(exchange.path, target())
    const headers = { ...req.headers, 'content-length': String(Buffer.byteLength(body)) }
    const out = forward(upstream, { method: exchange.method, headers }, async (answer) => {
      const text = await readAll(answer)
      exchange.response = { status: answer.statusCode ?? 0, json: parse(text), at: Date.now() }
      if (hung) return stick(res)
      if (!(await gate('response', exchange, res))) return
      if (res.socket?.destroyed) return
      const { 'transfer-encoding': _, connection: __, 'content-length': ___, ...rest } = answer.headers
      res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': String(Buffer.byteLength(text)) }).end(text)
    })
    // A server that is not there: the extension sees the connection fail, as it would without the proxy.
    out.on('error', () => res.socket?.destroy())
    out.end(body)
  })
  server.on('connection', (socket: Socket) => {
    if (down) return void socket.destroy()
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    holdRequest: (match) => hold('request', match),
    holdResponse: (match) => hold('response', match),
    setDown(value) {
      down = value
      if (value) for (const socket of sockets) socket.destroy()
    },
    setHung(value) {
      hung = value
      if (value) return
      for (const socket of stuck) socket.destroy()
      stuck.clear()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
