import type { WxtBrowser as Browser } from 'wxt/browser'
import type { ElementInfo } from '#protocol'
import type { ActOutcome, ContentKind, ContentReply, ContentRequest, PageState } from '../messages'
import type { ContentChannel } from './content-channel'
import { originPattern } from './site-access'

export interface GrantedFramesDeps {
  channel: Pick<ContentChannel, 'ask' | 'ensure'>
  webNavigation: Pick<Browser['webNavigation'], 'getAllFrames'>
  permissions: Pick<Browser['permissions'], 'contains'>
  /** How long one frame may take to start Tandem and answer, before it is named unreached instead. */
  frameDeadlineMs?: number
  /**
   * Where each tab's frame indexes are kept between steps: the worker may be stopped between the reading the model
   * saw and the step it chose (chrome.storage.session). Without it they live as long as the worker.
   */
  store?: { get(tabId: number): Promise<unknown>; set(tabId: number, frames: TabFrames): Promise<void> }
}

interface FrameInfo {
  frameId: number
  parentFrameId: number
  url: string
}

/** A frame whose elements are in the observation: indexes `from`..`to` of the tree are its own, shifted by `from`. */
export interface FramePart {
  frameId: number
  origin: string
  from: number
  to: number
}

/** What the last reading of a tab's page reached: frames read (with their indexes), granted frames that failed. */
export interface TabFrames {
  parts: FramePart[]
  failed: string[]
}

const MAX_FRAMES = 10
/** How long after a step in a frame its page script may start a navigation there. */
const FRAME_GRACE_MS = 300

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const webOrigin = (url: string): string | null => {
  if (!URL.canParse(url)) return null
  const parsed = new URL(url)
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
}

const INDEX = /^(\*?)\[(\d+)\]<([a-z][a-z0-9-]*)/

/** The highest index the tree lists, so a frame's elements follow the page's without a gap or a clash. */
function nextIndex(page: Pick<PageState, 'elementTree' | 'elements'>): number {
  let max = -1
  for (const line of (page.elementTree ?? '').split('\n')) {
    const m = INDEX.exec(line)
    if (m) max = Math.max(max, Number(m[2]))
  }
  for (const e of page.elements ?? []) max = Math.max(max, e.index)
  return max + 1
}

/**
 * A frame's tree and elements after the page's: each index moved by `offset` and each line marked with the
 * frame's origin (`frame="https://pay.example"`), in the same `[N]<tag attrs>text` form.
 */
export function shiftFrame(part: Pick<PageState, 'elementTree' | 'elements'>, offset: number, origin: string) {
  const lines = (part.elementTree ?? '')
    .split('\n')
    .filter((l) => INDEX.test(l))
    .map((l) => l.replace(INDEX, (_, star: string, n: string, tag: string) => `${star}[${Number(n) + offset}]<${tag} frame="${origin}"`))
  const elements: ElementInfo[] = (part.elements ?? []).map((e) => ({ ...e, index: e.index + offset, attributes: { ...e.attributes, frame: origin } }))
  return { tree: lines.join('\n'), elements, count: nextIndex(part) }
}

/**
 * The content channel, reaching into the cross-origin frames of the task's page whose sites the person granted:
 * reading the page reads those frames too (their elements listed after the page's, indexes going on), and a step
 * aimed at a frame's element runs in that frame's content script. A frame that cannot be reached (injection
 * refused, no answer in time) leaves the page's reading as it was and is named unreached.
 */
export function createGrantedFrames(deps: GrantedFramesDeps) {
  const deadline = deps.frameDeadlineMs ?? 3000
  const byTab = new Map<number, TabFrames>()

  const granted = (origin: string) => deps.permissions.contains({ origins: [originPattern(new URL(origin))] }).catch(() => false)

  /** The frames to read: of another origin than their parent and the page, with every foreign frame above them granted. */
  async function frames(tabId: number): Promise<{ frameId: number; origin: string }[]> {
    const all = ((await deps.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []) as FrameInfo[]
    const byId = new Map(all.map((f) => [f.frameId, f]))
    const topOrigin = webOrigin(byId.get(0)?.url ?? '')
    if (!topOrigin) return []
    const out: { frameId: number; origin: string }[] = []
    for (const frame of all) {
      if (frame.frameId === 0 || out.length >= MAX_FRAMES) continue
      const origin = webOrigin(frame.url)
      const parent = byId.get(frame.parentFrameId)
      // A frame of its parent's origin is read by its parent's content script; one of the page's own origin inside a foreign frame is left out.
      if (!origin || !parent || origin === topOrigin || origin === webOrigin(parent.url)) continue
      let allowed = await granted(origin)
      for (let f = parent, hops = 0; allowed && f && f.frameId !== 0 && hops < 50; f = byId.get(f.parentFrameId)!, hops++) {
        const above = webOrigin(f.url)
        if (!above || (above !== topOrigin && !(await granted(above)))) allowed = false
      }
      if (allowed) out.push({ frameId: frame.frameId, origin })
    }
    return out
  }

  /** One frame's reading; a frame between documents (a form it posted) is tried again until the deadline. */
  async function readFrame(tabId: number, frameId: number): Promise<PageState> {
    const until = Date.now() + deadline
    for (;;) {
      const left = until - Date.now()
      try {
        await deps.channel.ensure(tabId, frameId, Math.max(200, left))
        return await deps.channel.ask(tabId, { kind: 'observe' }, Math.max(200, until - Date.now()), frameId)
      } catch (error) {
        if (Date.now() + 150 >= until) throw error
        await sleep(150)
      }
    }
  }

  /** The page's reading with its granted frames' elements after its own. */
  async function withFrames(tabId: number, page: PageState): Promise<PageState> {
    const parts: FramePart[] = []
    const failed: string[] = []
    let next = nextIndex(page)
    let tree = page.elementTree ?? ''
    let elements = page.elements ? [...page.elements] : undefined
    let text = page.visibleTextSnippet ?? ''
    // All frames together get a bounded time, so a page full of slow frames still answers.
    const allUntil = Date.now() + 2 * deadline
    for (const frame of await frames(tabId)) {
      if (Date.now() >= allUntil) {
        if (!failed.includes(frame.origin)) failed.push(frame.origin)
        continue
      }
      try {
        const part = await readFrame(tabId, frame.frameId)
        const shifted = shiftFrame(part, next, frame.origin)
        // A frame with nothing to click was still read: its text is the page's, and it is not unreached.
        parts.push({ frameId: frame.frameId, origin: frame.origin, from: next, to: next + shifted.count - 1 })
        if (shifted.tree) tree = tree ? `${tree}\n${shifted.tree}` : shifted.tree
        if (elements) elements.push(...shifted.elements)
        if (part.visibleTextSnippet) text = `${text}\n${part.visibleTextSnippet.slice(0, 4000)}`
        next += shifted.count
      } catch {
        if (!failed.includes(frame.origin)) failed.push(frame.origin)
      }
    }
    const before = byTab.get(tabId)
    byTab.set(tabId, { parts, failed })
    // Kept again only when it changed: most pages have no frame at all, step after step.
    if (!before || JSON.stringify(before) !== JSON.stringify({ parts, failed })) await deps.store?.set(tabId, { parts, failed }).catch(() => undefined)
    return { ...page, elementTree: tree, ...(elements ? { elements } : {}), visibleTextSnippet: text }
  }

  async function framesOf(tabId: number): Promise<TabFrames | undefined> {
    if (byTab.has(tabId) || !deps.store) return byTab.get(tabId)
    const stored = (await deps.store.get(tabId).catch(() => undefined)) as TabFrames | undefined
    if (stored && Array.isArray(stored.parts)) byTab.set(tabId, stored)
    return byTab.get(tabId)
  }

  /** The frame an action's target lies in, and the action with its indexes as the frame counts them. */
  function route(tabId: number, request: Extract<ContentRequest, { kind: 'act' }>) {
    const { action } = request
    const params = action.params as Record<string, unknown>
    const target = action.target?.by === 'index' ? action.target : null
    const index = target ? target.value : typeof params.index === 'number' ? params.index : null
    if (index === null) return null
    const part = byTab.get(tabId)?.parts.find((p) => index >= p.from && index <= p.to)
    if (!part) return null
    const to = typeof params.to === 'number' ? params.to : null
    if (to !== null && (to < part.from || to > part.to)) return { part, refused: true as const }
    const shifted = {
      ...params,
      ...(typeof params.index === 'number' ? { index: params.index - part.from } : {}),
      ...(to !== null ? { to: to - part.from } : {}),
    }
    const moved = { ...action, params: shifted, ...(target ? { target: { ...target, value: target.value - part.from } } : {}) }
    return { part, refused: false as const, request: { ...request, action: moved } as typeof request }
  }

  /**
   * A step in a frame may send the frame to a new document (a form posted): the runner watches only the page, so
   * the frame is given a moment, then Tandem is started again in whatever document it shows.
   */
  async function settled(tabId: number, frameId: number) {
    const until = Date.now() + deadline
    await sleep(FRAME_GRACE_MS)
    while (Date.now() < until) {
      try {
        await deps.channel.ensure(tabId, frameId, Math.max(200, until - Date.now()))
        return
      } catch {
        await sleep(100)
      }
    }
  }

  async function act(tabId: number, request: Extract<ContentRequest, { kind: 'act' }>, timeoutMs: number): Promise<ActOutcome> {
    await framesOf(tabId)
    const routed = route(tabId, request)
    if (!routed) {
      const outcome = await deps.channel.ask(tabId, request, timeoutMs)
      return outcome.page ? { ...outcome, page: await withFrames(tabId, outcome.page).catch(() => outcome.page!) } : outcome
    }
    const failed = (error: ActOutcome['errors'][number]): ActOutcome => ({ actionId: request.action.actionId, status: 'failed', errors: [error], timing: {} })
    if (routed.refused) {
      return failed({ code: 'TARGET_NOT_INTERACTABLE', message: 'A drag from inside a frame can only drop inside the same frame.' })
    }
    // The frame's site must still be granted, and the frame still show it: the page's site gate, for the frame.
    const now = ((await deps.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []) as FrameInfo[]
    const frameUrl = now.find((f) => f.frameId === routed.part.frameId)?.url ?? ''
    if (webOrigin(frameUrl) !== routed.part.origin || !(await granted(routed.part.origin))) {
      return failed({
        code: 'PERMISSION_DENIED',
        message: `Tandem may not act in the frame from ${routed.part.origin}: authorise the site in the side panel.`,
        origin: routed.part.origin,
      })
    }
    const outcome = await deps.channel.ask(tabId, routed.request, timeoutMs, routed.part.frameId)
    await settled(tabId, routed.part.frameId)
    // The step's page is the whole page as the model saw it, not the frame alone.
    const page = await deps.channel
      .ask(tabId, { kind: 'observe' }, 15_000)
      .then((top) => withFrames(tabId, top))
      .catch(() => undefined)
    // Trusted input goes to the page's frame only: a step in a frame clicked and typed with DOM events.
    const { page: _framePage, ...rest } = outcome
    return { ...rest, ...(rest.input ? { input: 'dom' as const } : {}), ...(page ? { page } : {}) }
  }

  /**
   * A screenshot shows the frames Tandem read as well as the page: their sensitive fields are hidden too, and a
   * frame that cannot hide them means no screenshot (fail closed), as for the page.
   */
  async function maskAll(tabId: number, request: Extract<ContentRequest, { kind: 'mask' | 'unmask' }>, timeoutMs: number) {
    const top = await deps.channel.ask(tabId, request, timeoutMs)
    const parts = (await framesOf(tabId))?.parts ?? []
    const answers = await Promise.all(
      parts.map((p) =>
        deps.channel
          .ask(tabId, request, Math.min(timeoutMs, deadline), p.frameId)
          .then((reply) => ('masked' in reply ? reply.masked : true))
          .catch(() => false),
      ),
    )
    if (request.kind === 'mask' && 'masked' in top) return { masked: top.masked && answers.every(Boolean) }
    return top
  }

  return {
    async ask<K extends ContentKind>(tabId: number, request: Extract<ContentRequest, { kind: K }>, timeoutMs: number): Promise<ContentReply<K>> {
      if (request.kind === 'observe') {
        const top = (await deps.channel.ask(tabId, request, timeoutMs)) as PageState
        return (await withFrames(tabId, top).catch(() => top)) as ContentReply<K>
      }
      if (request.kind === 'act') return (await act(tabId, request as Extract<ContentRequest, { kind: 'act' }>, timeoutMs)) as ContentReply<K>
      if (request.kind === 'mask' || request.kind === 'unmask') return (await maskAll(tabId, request as Extract<ContentRequest, { kind: 'mask' | 'unmask' }>, timeoutMs)) as ContentReply<K>
      return deps.channel.ask(tabId, request, timeoutMs)
    },
    ensure: (tabId: number) => deps.channel.ensure(tabId),
    /** Origins of the frames the last reading of the tab reached, and of granted frames it could not reach. */
    reached: (tabId: number) => new Set(byTab.get(tabId)?.parts.map((p) => p.origin) ?? []),
    failed: (tabId: number) => new Set(byTab.get(tabId)?.failed ?? []),
  }
}
export type GrantedFrames = ReturnType<typeof createGrantedFrames>
