import { folderOf } from '../corpus/folder'
import { entryAssets, escapeHtml as esc, startPagesSite, type Assets, type PagesSite } from '../support/pages-site'
import type { AppTask } from './types'

export const APPS_DIST = 'dist/apps'

export type AppsSite = PagesSite<AppTask>

/** Where a task's page keeps its state: a key of its folder's own, since every task's page shares the site's origin. */
export const storageKeyOf = (task: AppTask): string => `${folderOf(task.id)}/${task.group === 'todomvc' ? `todos-${task.entry}` : task.page}`

const head = (task: AppTask, assets: Assets, style = '') => `<!doctype html><html lang="${task.lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(task.title)}</title>${assets.css.map((href) => `<link rel="stylesheet" href="${href}">`).join('')}${style ? `<style>${style}</style>` : ''}</head>`

const spec = (task: AppTask, base: string) =>
  `<script>window.__APPS__ = ${JSON.stringify({ page: task.page, lang: task.lang, base, storageKey: storageKeyOf(task), seed: task.seed ?? [] }).replace(/</g, '\\u003c')}</script>`

/** The TodoMVC spec's page: the app, then its info footer. */
const TODOMVC_INFO = '<footer class="info"><p>Double-click to edit a todo</p><p>Part of <a href="#/">TodoMVC</a></p></footer>'

/**
 * A news site's article page with the todo app in its sidebar: header, navigation, a long article, related links,
 * a newsletter form, a footer. The page's own styles undo the TodoMVC stylesheet's narrow body (it is not changed).
 */
function largePage(): { style: string; before: string; after: string } {
  const paragraphs = [
    'City officials confirmed on Tuesday that the long-delayed harbour tunnel will open to traffic in the spring, ending a decade of planning disputes, budget overruns and two changes of contractor.',
    'The tunnel, which runs 2.4 kilometres beneath the shipping channel, is expected to carry some 40,000 vehicles a day and to cut the commute between the northern suburbs and the business district by up to twenty minutes.',
    'Residents along the waterfront have welcomed the news, though several neighbourhood groups say the new access roads will bring heavier traffic to streets that were never designed for it.',
    '“We are not against the tunnel,” said one resident who has lived on Quay Street for thirty years. “We just want the council to keep its promise about the noise barriers and the cycle lanes.”',
    'The project’s final cost is now estimated at 1.9 billion, almost double the original figure. An independent review published last year blamed poor soil surveys and a rushed tender process.',
    'Transport planners say the opening will be staggered: buses and emergency vehicles first, then private cars after a two-week trial period, with tolls to be introduced in the autumn.',
  ]
  const article = Array.from({ length: 3 }, (_, i) => paragraphs.map((p) => `<p>${p}</p>`).join('') + `<h2>${['What changes for commuters', 'The cost, explained', 'What happens next'][i]}</h2>`).join('')
  return {
    style: `body{max-width:none;min-width:0;margin:0;font:16px Georgia,serif;background:#fafafa;color:#222}
.site-header{background:#0b3d5c;color:#fff;padding:14px 32px;display:flex;justify-content:space-between;align-items:center}.site-header a{color:#fff;margin-left:18px;text-decoration:none}
.site-nav{background:#fff;border-bottom:1px solid #ddd;padding:8px 32px}.site-nav a{margin-right:20px;color:#0b3d5c;text-decoration:none;font:14px system-ui,sans-serif}
.layout{display:grid;grid-template-columns:minmax(0,1fr) 560px;gap:32px;padding:24px 32px}.article{max-width:720px;line-height:1.6}.sidebar{font:14px system-ui,sans-serif}
.sidebar h3{margin:24px 0 8px}.sidebar .todoapp{margin:8px 0 24px}.sidebar .todoapp h1{position:static;font-size:48px}.related a{display:block;margin:6px 0;color:#0b3d5c}.site-footer{background:#222;color:#ccc;padding:24px 32px;font:13px system-ui,sans-serif}`,
    before: `<header class="site-header"><strong>The Harbour Courier</strong><span><a href="#/">Subscribe</a><a href="#/">Sign in</a></span></header>
<nav class="site-nav"><a href="#/">News</a><a href="#/">City</a><a href="#/">Business</a><a href="#/">Sport</a><a href="#/">Culture</a><a href="#/">Opinion</a><a href="#/">Weather</a></nav>
<div class="layout"><article class="article"><h1>Harbour tunnel to open in spring after decade of delays</h1><p><em>By our transport correspondent · 6 min read</em></p>${article}
<p><a href="#/">Share this article</a> · <a href="#/">Comments (128)</a></p></article>
<aside class="sidebar"><h3>My reading list</h3>`,
    after: `<h3>Related</h3><div class="related"><a href="#/">Council approves new cycle lanes</a><a href="#/">Ferry timetable changes from Monday</a><a href="#/">Opinion: the tunnel we deserve</a></div>
<h3>Newsletter</h3><form onsubmit="return false"><label>Email <input type="email" placeholder="you@example.com"></label> <button>Sign up</button></form></aside></div>
<footer class="site-footer">© The Harbour Courier · <a href="#/" style="color:#ccc">Privacy</a> · <a href="#/" style="color:#ccc">Contact</a></footer>`,
  }
}

/** A task's page: its entry's bundle, the spec it reads (page, folder, storage key, seed), in the layout it asks for. */
function shell(task: AppTask, assets: Assets, base: string): string {
  const script = `${spec(task, base)}<script type="module" src="${assets.js}"></script>`
  if (task.group === 'jquery-era') {
    return `${head(task, assets, 'body{font:15px system-ui,sans-serif;margin:0}main{padding:16px 24px;max-width:820px}')}
<body><main><h1>${esc(task.title)}</h1><div id="app"></div><p id="status" role="status"></p></main>${script}</body></html>`
  }
  if (task.layout === 'large-page') {
    const page = largePage()
    return `${head(task, assets, page.style)}<body>${page.before}<div id="app"></div>${page.after}${script}</body></html>`
  }
  return `${head(task, assets)}<body><div id="app"></div>${TODOMVC_INFO}${script}</body></html>`
}

/** The apps' site: each task's page under /a/<folder>/, every request logged, bundles under /assets. */
export function startAppsSite(tasks: AppTask[]): Promise<AppsSite> {
  const assets = entryAssets(APPS_DIST)
  return startPagesSite({
    dist: APPS_DIST,
    prefix: 'a',
    tasks,
    page: (task, { method, path, base }) => (method === 'GET' && path === '/' ? shell(task, assets[task.entry]!, base) : undefined),
    landing: (_task, path) => `<!doctype html><html><head><meta charset="utf-8"><title>Opened</title></head><body><h1>${esc(path)}</h1></body></html>`,
  })
}
