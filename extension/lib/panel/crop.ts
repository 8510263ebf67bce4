import type { ArtifactMark } from '#protocol'

/** A part of a picture, as fractions of its width and height. */
export type Area = { x: number; y: number; w: number; h: number }

/** How much of the picture's width the crop shows at least: enough of the page around the element to place it. */
const MIN_WIDTH = 0.4
/** The crop is this many times the element's size, so a small button is seen with what is around it. */
const AROUND = 3

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))

/**
 * The part of a picture a card shows around the element marked on it, in the frame's proportions (`frameAspect`,
 * width over height, as `pictureAspect` is the picture's): centred on the element, as large as it needs to hold it
 * with some of the page around, and never past the picture's edges.
 */
export function cropAround(mark: ArtifactMark, pictureAspect: number, frameAspect: number): Area {
  // Heights as fractions of the picture's height for a crop `w` wide, in the frame's proportions.
  const heightFor = (w: number) => (w * pictureAspect) / frameAspect
  let w = clamp(Math.max(mark.w * AROUND, MIN_WIDTH), 0, 1)
  // A tall element: widen until its height fits with room around it.
  const tallest = Math.min(1, mark.h * 1.5)
  if (heightFor(w) < tallest) w = (tallest * frameAspect) / pictureAspect
  // Never more than the picture holds, in either direction.
  w = Math.min(w, 1, frameAspect / pictureAspect)
  const h = Math.min(1, heightFor(w))
  const x = clamp(mark.x + mark.w / 2 - w / 2, 0, 1 - w)
  const y = clamp(mark.y + mark.h / 2 - h / 2, 0, 1 - h)
  return { x, y, w, h }
}

/** Where an area of the picture falls in the crop's frame, as percentages of the frame (for CSS). */
export function placeIn(crop: Area, part: Area): { left: string; top: string; width: string; height: string } {
  const pct = (n: number) => `${(n * 100).toFixed(3)}%`
  return { left: pct((part.x - crop.x) / crop.w), top: pct((part.y - crop.y) / crop.h), width: pct(part.w / crop.w), height: pct(part.h / crop.h) }
}
