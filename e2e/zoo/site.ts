import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { folderOf } from '../corpus/folder'
import type { Entry, Expect, Task } from './types'

export const ZOO_DIST = 'dist/zoo'

/** One request as it arrived, body and all: verdicts are read from these, never from what Tandem reports. */
export interface Arrival {
  method: string
  /** Relative to the task's folder ('/', '/submit', '/item/1'). */
  path: string
  taskId: string
  body: string
}

export interface ZooSite {
  url: string
  log: Arrival[]
  startUrl(task: Task): string
  close(): Promise<void>
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.svg': 'image/svg+xml' }
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

type Assets = { js: string; css: string[] }

function assetsFor(): Record<Entry, Assets> {
  const manifest = JSON.parse(readFileSync(join(ZOO_DIST, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; isEntry?: boolean; imports?: string[] }>
  const out = {} as Record<Entry, Assets>
  const cssOf = (key: string, seen = new Set<string>()): string[] => {
    if (seen.has(key)) return []
    seen.add(key)
    const e = manifest[key]!
    return [...(e.imports ?? []).flatMap((k) => cssOf(k, seen)), ...(e.css ?? [])]
  }
  for (const [src, entry] of Object.entries(manifest)) {
    const name = /^app\/(\w+)\.ts$/.exec(src)?.[1] as Entry | undefined
    if (name && entry.isEntry) out[name] = { js: `/${entry.file}`, css: [...new Set(cssOf(src))].map((f) => `/${f}`) }
  }
  return out
}

/** A task's page: the library's bundle told which page to draw, under a heading, with a status line it writes to. */
function shell(task: Task, entry: Entry, page: string, assets: Assets, base: string): string {
  const spec = JSON.stringify({ page, lang: task.lang, base }).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="${task.lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(task.title)}</title>${assets.css.map((href) => `<link rel="stylesheet" href="${href}">`).join('')}
<style>body{font:15px system-ui,sans-serif;margin:0}main{padding:16px 24px;max-width:820px}</style></head>
<body><main><h1>${esc(task.title)}</h1><div id="app"></div><p id="status" role="status"></p></main>
<script>window.__ZOO__ = ${spec}</script><script type="module" src="${assets.js}"></script></body></html>`
}

const landed = (task: Task, path: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${task.lang === 'zh' ? '已打开' : 'Opened'}</title></head><body><h1>${esc(path)}</h1></body></html>`

/** The zoo's site: each task's pages under /z/<folder>/, every request logged with its body, bundles under /assets. */
export async function startZooSite(tasks: Task[]): Promise<ZooSite> {
  const byFolder = new Map(tasks.map((t) => [folderOf(t.id), t]))
  const assets = assetsFor()
  const log: Arrival[] = []
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const url = new URL(req.url ?? '/', 'http://zoo')
    if (url.pathname.startsWith('/assets/')) {
      const file = join(ZOO_DIST, normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''))
      if (!existsSync(file)) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' }).end(readFileSync(file))
      return
    }
    const folder = /^\/z\/([^/]+)/.exec(url.pathname)?.[1] ?? ''
    const task = byFolder.get(folder)
    if (!task) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    const base = `/z/${folder}`
    const path = url.pathname.slice(base.length) || '/'
    log.push({ method: req.method ?? 'GET', path, taskId: task.id, body: Buffer.concat(chunks).toString('utf8').slice(0, 200_000) })
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body)
    if (req.method === 'GET' && path === '/') return html(shell(task, task.entry, task.page ?? task.id, assets[task.entry], base))
    const extra = task.pages?.[path]
    if (req.method === 'GET' && extra) return html(shell(task, 'plain', extra, assets.plain, base))
    if (String(req.headers.accept ?? '').includes('text/html')) return html(landed(task, path))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    log,
    startUrl: (task) => `${url}/z/${folderOf(task.id)}/`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

/** Whether the requests a run sent include the one the task expects; the reason when not. */
export function judge(expect: Expect, arrivals: Arrival[]): { ok: boolean; why: string } {
  for (const other of expect.also ?? []) {
    if (!arrivals.some((a) => `${a.method} ${a.path}` === other)) return { ok: false, why: `no ${other}` }
  }
  const [method, path] = expect.request.split(' ')
  const hits = arrivals.filter((a) => a.method === method && a.path === path)
  if (!hits.length) return { ok: false, why: `no ${expect.request} (got ${arrivals.filter((a) => a.method !== 'GET' || a.path !== '/').map((a) => `${a.method} ${a.path}`).join(', ') || 'nothing'})` }
  const fits = (a: Arrival): string => {
    for (const s of expect.contains ?? []) if (!a.body.includes(s)) return `body lacks ${JSON.stringify(s)}`
    if (!expect.body) return ''
    let json: Record<string, unknown>
    try {
      json = JSON.parse(a.body)
    } catch {
      return 'body is not JSON'
    }
    for (const [k, v] of Object.entries(expect.body)) if (JSON.stringify(json[k]) !== JSON.stringify(v)) return `${k} was ${JSON.stringify(json[k])}, wanted ${JSON.stringify(v)}`
    return ''
  }
  const last = hits.map(fits)
  return last.includes('') ? { ok: true, why: '' } : { ok: false, why: `${expect.request}: ${last.at(-1)} (body ${hits.at(-1)!.body.slice(0, 200)})` }
}
