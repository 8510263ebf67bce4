import { describe, expect, it } from 'vitest'
import { cropAround, placeIn } from '../lib/panel/crop'

const WIDE = 16 / 9
const FRAME = 4 / 3
/** The crop's shape in pixels, width over height, for a picture of `aspect`. */
const shapeOf = (crop: { w: number; h: number }, aspect: number) => (crop.w * aspect) / crop.h
const holds = (crop: { x: number; y: number; w: number; h: number }, m: { x: number; y: number; w: number; h: number }) =>
  crop.x <= m.x && crop.y <= m.y && crop.x + crop.w >= m.x + m.w && crop.y + crop.h >= m.y + m.h

describe('the card’s picture around the element', () => {
  it('shows a small button with the page around it, centred, in the frame’s shape, large enough to read', () => {
    const button = { x: 0.6, y: 0.5, w: 0.08, h: 0.04 }
    const crop = cropAround(button, WIDE, FRAME)
    expect(holds(crop, button)).toBe(true)
    expect(crop.w).toBeCloseTo(0.4, 5)
    expect(shapeOf(crop, WIDE)).toBeCloseTo(FRAME, 5)
    expect(crop.x + crop.w / 2).toBeCloseTo(button.x + button.w / 2, 5)
    expect(crop.y + crop.h / 2).toBeCloseTo(button.y + button.h / 2, 5)
  })

  it('stays inside the picture for an element in a corner', () => {
    const corner = { x: 0.95, y: 0.96, w: 0.05, h: 0.04 }
    const crop = cropAround(corner, WIDE, FRAME)
    expect(holds(crop, corner)).toBe(true)
    expect(crop.x + crop.w).toBeCloseTo(1, 5)
    expect(crop.y + crop.h).toBeCloseTo(1, 5)
    expect(crop.x).toBeGreaterThanOrEqual(0)
  })

  it('widens for a tall element and never shows more than the picture', () => {
    const tall = { x: 0.1, y: 0.05, w: 0.1, h: 0.9 }
    const crop = cropAround(tall, WIDE, FRAME)
    expect(holds(crop, tall)).toBe(true)
    expect(crop.h).toBeLessThanOrEqual(1)
    expect(crop.w).toBeLessThanOrEqual(1)
    const huge = cropAround({ x: 0, y: 0, w: 1, h: 1 }, WIDE, FRAME)
    expect(huge.w).toBeLessThanOrEqual(1)
    expect(huge.h).toBeLessThanOrEqual(1)
  })

  it('places the picture and the outline in the frame as percentages', () => {
    const crop = { x: 0.25, y: 0.5, w: 0.5, h: 0.25 }
    expect(placeIn(crop, { x: 0, y: 0, w: 1, h: 1 })).toEqual({ left: '-50.000%', top: '-200.000%', width: '200.000%', height: '400.000%' })
    expect(placeIn(crop, { x: 0.5, y: 0.55, w: 0.1, h: 0.05 })).toEqual({ left: '50.000%', top: '20.000%', width: '20.000%', height: '20.000%' })
  })
})
