/**
 * Controls known by the listeners a page's framework bound to them, where a person sees a thing to press and the
 * markup says nothing (a jQuery page's `$('#list').on('click', '.more', …)` on a plain span, a React `div` with
 * `onClick`, a Vue `@click` compiled away). Those listeners live in the page's own JavaScript world, which the
 * content script does not share: a small script in the page's world (entrypoints/listeners.content.ts) answers a
 * census by sending an event to each such element, and the content script collects the elements those events reach.
 * Events cross worlds; the frameworks' bookkeeping does not.
 */

const ASK = 'tandem:listeners?'
const MARK = 'tandem:listens'

/** What a listener makes of an element: something to press, or something that reacts to the pointer over it. */
export type Listens = 'press' | 'hover'

// What a press sets off. Not a button going down or up alone: drag surfaces (jQuery UI's sortable and draggable, a
// canvas) listen to those on a whole container, which is no control, and would hide the items a person moves.
const PRESS = new Set(['click', 'dblclick', 'contextmenu', 'tap'])
const HOVER = new Set(['mouseenter', 'mouseover', 'pointerenter', 'pointerover'])
const kindOf = (type: string): Listens | undefined => (PRESS.has(type) ? 'press' : HOVER.has(type) ? 'hover' : undefined)
// React's and Vue's handler props, by their event name (`onClick`, `onMouseEnter`).
const PROP_TYPE = /^on([A-Z][a-zA-Z]*?)(Capture)?$/

type Found = Map<Element, Listens>
const note = (found: Found, el: Element, kind: Listens | undefined) => {
  if (kind && found.get(el) !== 'press') found.set(el, kind)
}

interface JQueryLike {
  (el: Element): { find(selector: string): { get(): Element[] } }
  fn?: { jquery?: string }
  _data?: (el: unknown, key: string) => Record<string, { selector?: string }[]> | undefined
}

/** jQuery's handlers, bound directly or delegated from an ancestor (matched by their selector). */
function jqueryListeners(win: Window, all: ArrayLike<Element>, found: Found) {
  const jq = ((win as any).jQuery ?? (win as any).$) as JQueryLike | undefined
  if (typeof jq !== 'function' || !jq.fn?.jquery || typeof jq._data !== 'function') return
  const read = (host: Element | Document) => {
    const events = jq._data!(host, 'events')
    if (!events) return
    for (const [type, handlers] of Object.entries(events)) {
      const kind = kindOf(type)
      if (!kind) continue
      for (const h of handlers) {
        if (!h.selector) {
          if (host.nodeType === 1) note(found, host as Element, kind)
          continue
        }
        let matched: Element[]
        try {
          matched = Array.from(host.querySelectorAll(h.selector))
        } catch {
          // jQuery's own selectors (`:visible`, `:first`) only jQuery can match.
          matched = host.nodeType === 1 ? jq(host as Element).find(h.selector).get() : []
        }
        for (const el of matched) note(found, el, kind)
      }
    }
  }
  read(win.document)
  for (let i = 0; i < all.length; i++) read(all[i]!)
}

/** The handler props on an element (`onClick`, `onMouseEnter`: React's and Vue's), as what they listen for. */
function noteProps(found: Found, el: Element, props: unknown) {
  if (!props || typeof props !== 'object') return
  for (const key of Object.keys(props)) {
    const type = PROP_TYPE.exec(key)?.[1]
    if (type && (props as Record<string, unknown>)[key]) note(found, el, kindOf(type.toLowerCase()))
  }
}

/**
 * React's props (`__reactProps$…`, `__reactEventHandlers$…` before 17), Vue 3's invokers (`_vei`, a symbol since 3.4,
 * looked for once an app's container says Vue is there), Preact's (`l`). Each key is found once, then read directly.
 */
function propListeners(all: ArrayLike<Element>, found: Found) {
  let reactKey: string | undefined
  let vue = false
  let veiKey: string | symbol | undefined
  for (let i = 0; i < all.length; i++) {
    const el = all[i]! as any
    if (reactKey === undefined || !vue) {
      const keys = Object.keys(el)
      if (keys.length) {
        reactKey ??= keys.find((k) => k.startsWith('__reactProps$') || k.startsWith('__reactEventHandlers$'))
        vue ||= keys.includes('__vue_app__')
        if (keys.includes('_vei')) veiKey = '_vei'
      }
    }
    if (vue && veiKey === undefined) veiKey = Object.getOwnPropertySymbols(el).find((s) => s.description === '_vei')
    if (reactKey) noteProps(found, el, el[reactKey])
    if (veiKey) noteProps(found, el, el[veiKey])
    const preact = el.l
    if (preact && typeof preact === 'object' && !Array.isArray(preact)) {
      for (const key of Object.keys(preact)) note(found, el, kindOf(key.replace(/(true|false)$/, '').toLowerCase()))
    }
  }
}

/** The elements of this document (not its shadow roots or frames) that the page's world has listeners on. */
export function listeningElements(win: Window): Found {
  const found: Found = new Map()
  const all = win.document.getElementsByTagName('*')
  try {
    jqueryListeners(win, all, found)
    propListeners(all, found)
  } catch {
    // A page that broke its own jQuery or props leaves what was found so far.
  }
  return found
}

/** In the page's world: answers each census with an event on every element listened to. */
export function answerListenerCensus(win: Window): void {
  const Custom = (win as unknown as typeof globalThis).CustomEvent
  win.document.addEventListener(ASK, () => {
    for (const [el, kind] of listeningElements(win)) el.dispatchEvent(new Custom(MARK, { detail: kind }))
  })
}

/** In the content script's world: the elements the page's world listens to (none where no census answers). */
export function askListenerCensus(doc: Document): Found {
  const found: Found = new Map()
  const take = (e: Event) => {
    const kind = (e as CustomEvent).detail
    if (e.target instanceof Element || (e.target as Node | null)?.nodeType === 1) found.set(e.target as Element, kind === 'hover' ? 'hover' : 'press')
  }
  doc.addEventListener(MARK, take, true)
  try {
    doc.dispatchEvent(new CustomEvent(ASK))
  } finally {
    doc.removeEventListener(MARK, take, true)
  }
  return found
}
