import type { WxtBrowser as Browser } from 'wxt/browser'
import type { UnreachedFrame } from '#protocol'
import { originPattern } from './site-access'

export interface FrameApis {
  webNavigation: Pick<Browser['webNavigation'], 'getAllFrames'>
  permissions: Pick<Browser['permissions'], 'contains'>
}

interface FrameInfo {
  frameId: number
  parentFrameId: number
  url: string
}

const MAX_FRAMES = 10

const webOrigin = (url: string): string | null => {
  if (!URL.canParse(url)) return null
  const parsed = new URL(url)
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null
}

/**
 * The frames of the page whose content Tandem did not read: the content script reads the page and the frames of its
 * own origin, and the frames of granted sites it reached (`reached`); any other frame from another origin (or inside
 * one) is not in the element tree. Each is named with why: its site is not granted, or it is another origin that
 * could not be reached (the frame refused Tandem or did not answer in time).
 */
export async function unreachedFrames(apis: FrameApis, tabId: number, reached: ReadonlySet<string> = new Set()): Promise<UnreachedFrame[]> {
  const frames = ((await apis.webNavigation.getAllFrames({ tabId }).catch(() => null)) ?? []) as FrameInfo[]
  const byId = new Map(frames.map((f) => [f.frameId, f]))
  const top = byId.get(0)
  const topOrigin = top ? webOrigin(top.url) : null
  if (!topOrigin) return []
  /** Whether a frame, or any frame it sits in, is of another origin than the page. */
  const foreign = (frame: FrameInfo): boolean => {
    for (let f: FrameInfo | undefined = frame, hops = 0; f && f.frameId !== 0 && hops < 50; f = byId.get(f.parentFrameId), hops++) {
      const origin = webOrigin(f.url)
      if (origin && origin !== topOrigin) return true
    }
    return false
  }
  const seen = new Map<string, UnreachedFrame>()
  for (const frame of frames) {
    if (frame.frameId === 0 || !foreign(frame)) continue
    const origin = webOrigin(frame.url)
    // A frame of the page's own origin inside a foreign one is named by the foreign one.
    if (!origin || origin === topOrigin || reached.has(origin) || seen.has(origin) || seen.size >= MAX_FRAMES) continue
    const granted = await apis.permissions.contains({ origins: [originPattern(new URL(origin))] }).catch(() => false)
    seen.set(origin, { origin, reached: false, why: granted ? 'cross-origin' : 'not-granted' })
  }
  return [...seen.values()]
}
