/**
 * The site a corpus of built pages is served from: each task's pages under /<prefix>/<folder>/, the bundles Vite
 * built under /assets, and every request logged with its body (the zoo's verdicts read that log).
 */
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { folderOf } from '../corpus/folder'

/** One request as it arrived, body and all. */
export interface Arrival {
  method: string
  /** Relative to the task's folder ('/', '/submit', '/item/1'). */
  path: string
  taskId: string
  body: string
}

export interface PagesSite<T> {
  url: string
  log: Arrival[]
  startUrl(task: T): string
  close(): Promise<void>
}

/** A built entry's script and the stylesheets it and the chunks it imports need. */
export interface Assets {
  js: string
  css: string[]
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png', '.gif': 'image/gif' }

export const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

/** Each entry (app/<name>.ts) of a Vite build, read from its manifest. */
export function entryAssets(dist: string): Record<string, Assets> {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[]; isEntry?: boolean; imports?: string[] }>
  const out: Record<string, Assets> = {}
  const cssOf = (key: string, seen = new Set<string>()): string[] => {
    if (seen.has(key)) return []
    seen.add(key)
    const e = manifest[key]!
    return [...(e.imports ?? []).flatMap((k) => cssOf(k, seen)), ...(e.css ?? [])]
  }
  for (const [src, entry] of Object.entries(manifest)) {
    const name = /^app\/(\w+)\.ts$/.exec(src)?.[1]
    if (name && entry.isEntry) out[name] = { js: `/${entry.file}`, css: [...new Set(cssOf(src))].map((f) => `/${f}`) }
  }
  return out
}

export interface PagesSiteOptions<T extends { id: string }> {
  dist: string
  /** The first segment of every task's path: /<prefix>/<folder>/. */
  prefix: string
  tasks: T[]
  /** The HTML for a request to a task's folder, or undefined for the site's default (a JSON ok, or a landing page). */
  page(task: T, request: { method: string; path: string; base: string }): string | undefined
  /** What a browser navigating to a path the task has no page for sees. */
  landing(task: T, path: string): string
}

export async function startPagesSite<T extends { id: string }>(options: PagesSiteOptions<T>): Promise<PagesSite<T>> {
  const { dist, prefix } = options
  const byFolder = new Map(options.tasks.map((t) => [folderOf(t.id), t]))
  const folderIn = new RegExp(`^/${prefix}/([^/]+)`)
  const log: Arrival[] = []
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const url = new URL(req.url ?? '/', 'http://pages')
    if (url.pathname.startsWith('/assets/')) {
      const file = join(dist, normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''))
      if (!existsSync(file)) return void res.writeHead(404).end()
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' }).end(readFileSync(file))
      return
    }
    const folder = folderIn.exec(url.pathname)?.[1] ?? ''
    const task = byFolder.get(folder)
    if (!task) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    const base = `/${prefix}/${folder}`
    const path = url.pathname.slice(base.length) || '/'
    const method = req.method ?? 'GET'
    log.push({ method, path, taskId: task.id, body: Buffer.concat(chunks).toString('utf8').slice(0, 200_000) })
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body)
    const page = options.page(task, { method, path, base })
    if (page !== undefined) return html(page)
    if (String(req.headers.accept ?? '').includes('text/html')) return html(options.landing(task, path))
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    log,
    startUrl: (task) => `${url}/${prefix}/${folderOf(task.id)}/`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}
