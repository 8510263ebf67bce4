import type { Target } from '../../../protocol/action'
import type { ArtifactMark } from '../../../protocol/observation'
import { scrollIntoViewIfNeeded } from './actionability'
import { hostFrameOf } from './dom'
import type { PageMemory } from './memory'
import { readableName } from './readable-name'
import { resolveTarget } from './resolve-target'

/** The element a step is about, brought into view for its picture: where it sits on screen and what it says. */
export interface Located {
  name?: string
  mark?: ArtifactMark
}

const clamp = (n: number) => Math.min(1, Math.max(0, n))

/** The element's box in the top window's viewport, across the same-origin frames it sits in. */
function viewportBox(el: Element): { x: number; y: number; w: number; h: number } {
  const rect = el.getBoundingClientRect()
  let x = rect.left
  let y = rect.top
  for (let frame = hostFrameOf(el.ownerDocument); frame; frame = hostFrameOf(frame.ownerDocument)) {
    const outer = frame.getBoundingClientRect()
    x += outer.left + frame.clientLeft
    y += outer.top + frame.clientTop
  }
  return { x, y, w: rect.width, h: rect.height }
}

/**
 * Finds the target, scrolls it into view when it is not, and says where it is as fractions of the viewport (what a
 * screenshot of the tab shows) and the words on it. An element not found, or out of sight after the scroll, has no
 * mark: the card then shows the whole page.
 */
export function locateTarget(win: Window, target: Target, memory: PageMemory, redact: (text: string) => string = (t) => t): Located {
  let el: Element
  try {
    el = resolveTarget(win, target, memory)
  } catch {
    return {}
  }
  const name = readableName(el, redact)
  scrollIntoViewIfNeeded(el)
  const box = viewportBox(el)
  const width = win.innerWidth
  const height = win.innerHeight
  const x0 = clamp(box.x / width)
  const y0 = clamp(box.y / height)
  const x1 = clamp((box.x + box.w) / width)
  const y1 = clamp((box.y + box.h) / height)
  const seen = width > 0 && height > 0 && x1 > x0 && y1 > y0
  return { ...(name ? { name } : {}), ...(seen ? { mark: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } } : {}) }
}
