import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bookingRoutes } from '../fixtures/booking'
import { effectRoutes } from '../fixtures/effects'
import { injectionRoutes } from '../fixtures/injection'
import { editingRoutes } from '../fixtures/editing'
import { inputRoutes } from '../fixtures/input'
import { pageRoutes } from '../fixtures/pages'
import { createShopState, shopRoutes, type ShopState } from '../fixtures/shop'
import { tabRoutes } from '../fixtures/tabs'
import { uploadRoutes } from '../fixtures/uploads'
import { tallyRoutes } from '../fixtures/tally'
import { writeRoutes } from '../fixtures/writes'

export interface RouteInput {
  query: URLSearchParams
  form: URLSearchParams
  host: string
}
export type RouteOutput = string | { redirect: string }
export interface Route {
  method: 'GET' | 'POST'
  path: string
  handle: (input: RouteInput) => RouteOutput | Promise<RouteOutput>
}

export interface FixtureSite {
  port: number
  /** http://127.0.0.1:<port> — granted to the test build. */
  url: string
  /** The same server under a name the extension was never granted (resolved by --host-resolver-rules). */
  deniedUrl: (name?: string) => string
  shop: ShopState
  /** Things pages reported doing (clicks that reached a handler, sign-ins), in order. */
  hits: string[]
  /** Every request the server saw, as "METHOD host path". */
  requests: string[]
  reset(): void
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The fixture sites, served from one loopback port; state is per server and reset between tests. */
export async function startFixtureSite(): Promise<FixtureSite> {
  let shop = createShopState()
  const hits: string[] = []
  const requests: string[] = []
  const record = (what: string) => hits.push(what)
  const routes = [...shopRoutes(() => shop), ...pageRoutes(record), ...injectionRoutes(record), ...tallyRoutes(), ...writeRoutes(), ...tabRoutes(record), ...uploadRoutes(record), ...inputRoutes(record), ...bookingRoutes(record), ...editingRoutes(), ...effectRoutes()]

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture')
    const host = req.headers.host ?? ''
    requests.push(`${req.method} ${host} ${url.pathname}`)
    try {
      const body = req.method === 'POST' ? await readBody(req) : ''
      // A page's handler ran: a GET, so it counts what the page did without being a write the barrier holds
      // (the barrier's own tests send real writes).
      if (url.pathname === '/hit' && (req.method === 'GET' || req.method === 'POST')) {
        hits.push(url.searchParams.get('what') ?? '')
        res.writeHead(204).end()
        return
      }
      if (url.pathname === '/favicon.ico') {
        res.writeHead(404).end()
        return
      }
      const route = routes.find((r) => r.method === req.method && r.path === url.pathname)
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
        return
      }
      const out = await route.handle({ query: url.searchParams, form: new URLSearchParams(body), host })
      if (typeof out === 'string') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(out)
      else res.writeHead(303, { location: out.redirect }).end()
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    deniedUrl: (name = 'shop.test') => `http://${name}:${port}`,
    get shop() {
      return shop
    },
    hits,
    requests,
    reset() {
      shop = createShopState()
      hits.length = 0
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
