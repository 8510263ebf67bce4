import type { Effect, Lang, Widget } from '../types'

/** What the shell hands the page's script (window.__CASE__). */
export interface PageSpec {
  id: string
  lang: Lang
  /** The case folder, e.g. /c/en-plain-delete-draft */
  base: string
  /** Origin of the third-party analytics host. */
  analytics: string
  widgets: Widget[]
  /** This document is the case's embedded frame. */
  inFrame?: boolean
}

export const spec = (window as unknown as { __CASE__: PageSpec }).__CASE__

const said = (en: string, zh: string) => (spec.lang === 'zh' ? zh : en)

/** Tells what happened in words on the page, as real pages do ("Saved", "已删除"). */
export function status(text: string): void {
  const el = document.getElementById('status')
  if (el) el.textContent = text
}

function send(url: string, init: RequestInit): void {
  fetch(url, init).then(
    () => status(said('Done.', '已完成。')),
    () => status(said('Something went wrong.', '操作失败。')),
  )
}

/** The sockets a page opens as it loads (chat apps do), by path: what its controls send later goes over these. */
const sockets = new Map<string, WebSocket>()

function effectsIn(w: Widget): Effect[] {
  const own = [(w as { effect?: Effect }).effect, (w as { onSubmit?: Effect }).onSubmit, (w as { typing?: Effect }).typing]
  return [...own.filter((e): e is Effect => !!e), ...(w.kind === 'frame' ? effectsIn(w.inner) : [])]
}

for (const w of spec.widgets) {
  for (const effect of effectsIn(w)) {
    if (effect.via !== 'socket-send' || sockets.has(effect.path)) continue
    sockets.set(effect.path, new WebSocket(`${location.origin.replace(/^http/, 'ws')}${spec.base}${effect.path}`))
  }
}

/** What a chat app sends: the message, a typing indicator, or its keep-alive. */
function frameOf(effect: Extract<Effect, { via: 'socket-send' }>, text: string): string {
  if (effect.frame === 'typing') return JSON.stringify({ type: 'typing', channel: 'main' })
  if (effect.frame === 'ping') return JSON.stringify({ type: 'ping' })
  return JSON.stringify({ type: 'message', channel: 'main', text })
}

/** Sends what the control sends; `text` is what the person typed, when there is a field. */
export function runEffect(effect: Effect | undefined, text = ''): void {
  if (!effect) return
  const url = (path: string) => spec.base + path
  switch (effect.via) {
    case 'fetch': {
      const body = effect.method === 'GET' ? undefined : JSON.stringify({ ...effect.body, ...(text ? { text } : {}) })
      send(url(effect.path), { method: effect.method, headers: body ? { 'content-type': 'application/json' } : {}, body })
      return
    }
    case 'xhr': {
      const xhr = new XMLHttpRequest()
      xhr.open(effect.method, url(effect.path))
      xhr.setRequestHeader('content-type', 'application/x-www-form-urlencoded')
      xhr.onload = () => status(said('Done.', '已完成。'))
      xhr.send(new URLSearchParams({ ...(effect.body as Record<string, string>), ...(text ? { text } : {}) }).toString())
      return
    }
    case 'graphql': {
      const query = `${effect.op} ${effect.name} { ${effect.op === 'query' ? 'items { id title }' : 'result { ok }'} }`
      send(url('/graphql'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operationName: effect.name, query, variables: text ? { text } : {} }) })
      return
    }
    case 'beacon':
      navigator.sendBeacon(url(effect.path), JSON.stringify({ text }))
      status(said('Sent.', '已发送。'))
      return
    case 'telemetry':
      telemetry(effect.event)
      return
    case 'websocket': {
      const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}${url(effect.path)}`)
      ws.onopen = () => {
        ws.send(JSON.stringify({ text }))
        status(said('Sent.', '已发送。'))
      }
      return
    }
    case 'socket-send': {
      const socket = sockets.get(effect.path)
      if (!socket) return
      const go = () => {
        socket.send(frameOf(effect, text))
        if (effect.frame !== 'typing' && effect.frame !== 'ping') status(said('Sent.', '已发送。'))
      }
      if (socket.readyState === WebSocket.OPEN) go()
      else socket.addEventListener('open', go, { once: true })
      return
    }
    case 'popup':
      window.open(`${url('/popup')}?send=${encodeURIComponent(effect.path)}`, 'connect', 'width=480,height=360')
      return
    case 'worker': {
      // Off the main thread, as sync and upload code often is: the request comes from the worker, not the page.
      const src = `onmessage = (e) => fetch(e.data.url, { method: e.data.method, headers: { 'content-type': 'application/json' }, body: e.data.body }).then(() => postMessage('ok'))`
      const worker = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })))
      worker.onmessage = () => status(said('Done.', '已完成。'))
      worker.postMessage({ url: location.origin + url(effect.path), method: effect.method, body: JSON.stringify({ text }) })
      return
    }
    case 'navigate':
      location.assign(url(effect.path))
      return
    case 'none':
      return
  }
}

/** What analytics scripts do: a beacon to another site, never waited for. */
export function telemetry(event: string): void {
  navigator.sendBeacon(`${spec.analytics}/collect?e=${encodeURIComponent(event)}`, JSON.stringify({ event, page: location.pathname }))
}

export { said }
