import type { Case } from './types'
import type { PageSpec } from './app/spec'
import { folderOf } from './folder'

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

const SITE = { en: 'Northwind', zh: '云杉' }
const NAV = { en: ['Home', 'Help'], zh: ['首页', '帮助'] }

const STYLE = `body{font:15px system-ui,sans-serif;margin:0}header{display:flex;gap:24px;padding:12px 24px;background:#f4f4f6}
main{padding:16px 24px;max-width:760px}section{margin:14px 0}.btn{display:inline-flex;gap:6px;align-items:center;padding:6px 12px;border:1px solid #888;border-radius:6px;cursor:pointer;background:#fff}
.modal,.popconfirm,[role=dialog]{border:1px solid #aaa;padding:12px;background:#fff;box-shadow:0 4px 20px #0003}.chip{border:1px solid #ccc;border-radius:12px;padding:2px 8px;margin-right:6px}
li[aria-selected=true]{background:#dde}textarea,.box{width:420px}.box{min-height:60px;border:1px solid #888;padding:4px}.popup{border:1px solid #ccc;padding:6px;display:inline-block}`

export interface Assets {
  js: string
  css: string[]
}

/** The page of one case: a site header, the case's heading and context, and the stack's script rendering its widgets. */
export function shell(c: Case, assets: Assets, analyticsOrigin: string): string {
  const spec: PageSpec = { id: c.id, lang: c.lang, base: `/c/${folderOf(c.id)}`, analytics: analyticsOrigin, widgets: [...(c.extra ?? []), c.widget] }
  const json = JSON.stringify(spec).replace(/</g, '\\u003c')
  // What analytics snippets do on every page view: report to another site without waiting.
  const pageview = c.telemetryOnLoad
    ? `<script>navigator.sendBeacon(${JSON.stringify(`${analyticsOrigin}/collect?e=pageview`)}, JSON.stringify({page: location.pathname}))</script>`
    : ''
  return `<!doctype html><html lang="${c.lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><title>${esc(c.title)} · ${SITE[c.lang]}</title>
${assets.css.map((href) => `<link rel="stylesheet" href="${href}">`).join('')}<style>${STYLE}</style></head>
<body><header><strong>${SITE[c.lang]}</strong><nav>${NAV[c.lang].map((n) => `<a href="#">${n}</a>`).join(' ')}</nav></header>
<main><h1>${esc(c.title)}</h1><p>${esc(c.intro)}</p><div id="app"></div><p id="status" role="status"></p></main>
<script>window.__CASE__ = ${json}</script>${pageview}<script type="module" src="${assets.js}"></script></body></html>`
}

/** The document of a case's embedded frame: its one inner widget, rendered by the plain script. */
export function frame(c: Case, assets: Assets, analyticsOrigin: string): string {
  if (c.widget.kind !== 'frame') return landed(c, '/frame')
  const spec: PageSpec = { id: c.id, lang: c.lang, base: `/c/${folderOf(c.id)}`, analytics: analyticsOrigin, widgets: [c.widget.inner], inFrame: true }
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(c.widget.title)}</title><style>${STYLE}</style></head>
<body><div id="app"></div><p id="status" role="status"></p><script>window.__CASE__ = ${JSON.stringify(spec).replace(/</g, '\\u003c')}</script><script type="module" src="${assets.js}"></script></body></html>`
}

/** A window that does its job on load, as sign-in and connect popups do: posts to `send`, then says so. */
export function popup(c: Case, send: string): string {
  const url = JSON.stringify(`/c/${folderOf(c.id)}${send.startsWith('/') ? send : '/'}`)
  return `<!doctype html><html><head><meta charset="utf-8"><title>…</title></head><body><p id="s">…</p>
<script>fetch(${url}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(() => { document.getElementById('s').textContent = 'OK' })</script></body></html>`
}

/** Where a form post, a link or a navigation lands: an ordinary page saying it happened. */
export function landed(c: Case, path: string): string {
  const said = c.lang === 'zh' ? '操作已完成' : 'Done'
  return `<!doctype html><html><head><meta charset="utf-8"><title>${said} · ${SITE[c.lang]}</title></head><body><h1>${said}</h1><p>${esc(path)}</p></body></html>`
}
