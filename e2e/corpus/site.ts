import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { extname, join, normalize } from 'node:path'
import { frame, landed, popup, shell, type Assets } from './shell'
import type { Case, Stack } from './types'
import { folderOf } from './folder'
import { createFrameReader } from './ws-frames'

export const CORPUS_DIST = 'dist/corpus'

/** One request as it arrived: the verdicts are read from these, never from what Tandem reports. */
export interface Arrival {
  at: number
  method: string
  host: string
  path: string
  /** The case folder the request was for ('' for assets and the analytics host). */
  caseId: string
  thirdParty: boolean
}

export interface CorpusSite {
  url: string
  /** The analytics host: another site, by name, on the same loopback server. */
  analyticsOrigin: string
  log: Arrival[]
  close(): Promise<void>
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.svg': 'image/svg+xml' }

function assetsFor(): Record<Stack, Assets> {
  const manifest = JSON.parse(readFileSync(join(CORPUS_DIST, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; isEntry?: boolean }>
  const out = {} as Record<Stack, Assets>
  for (const [src, entry] of Object.entries(manifest)) {
    const stack = /^app\/(\w+)\.ts$/.exec(src)?.[1] as Stack | undefined
    if (stack && entry.isEntry) out[stack] = { js: `/${entry.file}`, css: (entry.css ?? []).map((f) => `/${f}`) }
  }
  return out
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req);
}

/** Answers a WebSocket opening (RFC 6455 handshake) and keeps the socket; each message sent on it is `heard`. */
function acceptSocket(req: IncomingMessage, socket: Duplex, heard: () => void): void {
  const key = String(req.headers['sec-websocket-key'] ?? '')
  const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64')
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
  socket.on('error', () => undefined)
  socket.on('data', createFrameReader(heard, () => socket.end()))
  socket.on('end', () => socket.end())
}

/** The corpus site: every case's page under /c/<folder>/ (folderOf), its endpoints below it, the bundles under /assets. */
export async function startCorpusSite(cases: Case[]): Promise<CorpusSite> {
  const byId = new Map(cases.map((c) => [c.id, c]))
  const byFolder = new Map(cases.map((c) => [folderOf(c.id), c]))
  const assets = assetsFor()
  const log: Arrival[] = []
  let analyticsOrigin = ''
  const arrive = (req: IncomingMessage, method: string) => {
    const url = new URL(req.url ?? '/', 'http://corpus')
    const host = req.headers.host ?? ''
    const caseId = byFolder.get(/^\/c\/([^/]+)/.exec(url.pathname)?.[1] ?? '')?.id ?? ''
    log.push({ at: Date.now(), method, host, path: url.pathname, caseId, thirdParty: host.startsWith('analytics.test') })
    return { url, host, caseId }
  }

  const server: Server = createServer(async (req, res) => {
    const { url, host, caseId } = arrive(req, req.method ?? 'GET')
    await drain(req)
    if (host.startsWith('analytics.test')) {
      res.writeHead(204, { 'access-control-allow-origin': '*' }).end()
      return
    }
    if (url.pathname.startsWith('/assets/')) {
      const file = join(CORPUS_DIST, normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''))
      if (!existsSync(file)) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' }).end(readFileSync(file))
      return
    }
    const c = byId.get(caseId)
    if (!c) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    const rest = url.pathname.slice(`/c/${folderOf(c.id)}`.length) || '/'
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body)
    if (req.method === 'GET' && rest === '/') return html(shell(c, assets[c.stack], analyticsOrigin))
    if (req.method === 'GET' && rest === '/popup') return html(popup(c, url.searchParams.get('send') ?? '/'))
    if (req.method === 'GET' && rest === '/frame') return html(frame(c, assets.plain, analyticsOrigin))
    // A form post or a navigation gets a page; a script's request gets JSON.
    const wantsPage = String(req.headers.accept ?? '').includes('text/html')
    if (wantsPage) return html(landed(c, rest))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, data: { items: [] } }))
  })
  // Upgraded sockets leave the server's own bookkeeping: kept here so close() can end them.
  const sockets = new Set<Duplex>()
  server.on('upgrade', (req, socket) => {
    arrive(req, 'WS')
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // A message is an arrival of its own: WSMSG <path>, beside the WS <path> of the opening.
    acceptSocket(req, socket, () => void arrive(req, 'WSMSG'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  // *.test names resolve to loopback in the test browser (--host-resolver-rules), so this is another site.
  analyticsOrigin = `http://analytics.test:${port}`
  return {
    url: `http://127.0.0.1:${port}`,
    analyticsOrigin,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
