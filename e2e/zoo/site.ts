import { entryAssets, escapeHtml as esc, startPagesSite, type Arrival, type Assets, type PagesSite } from '../support/pages-site'
import type { Entry, Expect, Task } from './types'

export type { Arrival } from '../support/pages-site'

export const ZOO_DIST = 'dist/zoo'

export type ZooSite = PagesSite<Task>

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
export function startZooSite(tasks: Task[]): Promise<ZooSite> {
  const assets = entryAssets(ZOO_DIST) as Record<Entry, Assets>
  return startPagesSite({
    dist: ZOO_DIST,
    prefix: 'z',
    tasks,
    page(task, { method, path, base }) {
      if (method !== 'GET') return undefined
      if (path === '/') return shell(task, task.entry, task.page ?? task.id, assets[task.entry], base)
      const extra = task.pages?.[path]
      return extra ? shell(task, 'plain', extra, assets.plain, base) : undefined
    },
    landing: landed,
  })
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
