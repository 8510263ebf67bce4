import { describe, expect, it } from 'vitest'
import { unreachedFrames } from '../lib/executor/unreached-frames'

const apis = (frames: { frameId: number; parentFrameId: number; url: string }[], granted: string[]) => ({
  webNavigation: { getAllFrames: async () => frames } as never,
  permissions: { contains: async ({ origins }: { origins?: string[] }) => (origins ?? []).every((o) => granted.includes(o)) } as never,
})

describe('frames the page read leaves out', () => {
  it('names each other-origin frame once, granted or not, and leaves the page’s own frames and blank ones out', async () => {
    const frames = [
      { frameId: 0, parentFrameId: -1, url: 'https://shop.test/cart' },
      { frameId: 1, parentFrameId: 0, url: 'https://shop.test/coupon' },
      { frameId: 2, parentFrameId: 0, url: 'https://pay.example/card' },
      { frameId: 3, parentFrameId: 2, url: 'https://pay.example/cvc' },
      { frameId: 4, parentFrameId: 0, url: 'https://ads.example/banner' },
      { frameId: 5, parentFrameId: 0, url: 'about:blank' },
      // Same origin as the page, but inside a foreign frame: the page's script cannot reach it either.
      { frameId: 6, parentFrameId: 4, url: 'https://shop.test/pixel' },
    ]
    expect(await unreachedFrames(apis(frames, ['https://pay.example/*']), 9)).toEqual([
      { origin: 'https://pay.example', reached: false, why: 'cross-origin' },
      { origin: 'https://ads.example', reached: false, why: 'not-granted' },
    ])
  })

  it('says nothing for a page with no foreign frames, or when the browser cannot list them', async () => {
    expect(await unreachedFrames(apis([{ frameId: 0, parentFrameId: -1, url: 'https://shop.test/' }], []), 1)).toEqual([])
    const failing = { webNavigation: { getAllFrames: async () => Promise.reject(new Error('no tab')) } as never, permissions: { contains: async () => false } as never }
    expect(await unreachedFrames(failing, 1)).toEqual([])
  })
})
