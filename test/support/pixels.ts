import type { Page } from 'playwright-core'

export type Rgb = [number, number, number]

export interface Region {
  x: number
  y: number
  width: number
  height: number
}

export interface ScanOptions {
  /** The image's type; screenshots are PNG unless said otherwise. */
  contentType?: string
  /** Only this part, in CSS pixels of the decoding page (a screenshot may hold more pixels than that on a dense screen). */
  region?: Region
  /** Colours to count, by name. */
  colours?: Record<string, Rgb>
  /** How far (per channel) a pixel may be from a colour and still count as it. */
  tolerance?: number
}

export interface PixelScan {
  total: number
  /** Pixels within the tolerance of each asked colour, by the colour's name. */
  counts: Record<string, number>
  /** Pixels that are not the background (the colour of the scanned part's top-left pixel). */
  painted: number
  /** How many distinct colours (quantised) it holds: a blank page has one or two. */
  distinct: number
  /** Mean brightness, 0–255. */
  brightness: number
}

/** Measures an image decoded by a browser page, the one place the tests read pixels. */
export async function scanPixels(page: Page, image: Buffer, options: ScanOptions = {}): Promise<PixelScan> {
  const { contentType = 'image/png', region, colours = {}, tolerance = 24 } = options
  return page.evaluate(
    async ({ dataUrl, region, colours, tolerance }) => {
      const img = new Image()
      img.src = dataUrl
      await img.decode()
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')!
      ctx.drawImage(img, 0, 0)
      const scale = img.width / window.innerWidth
      const [x, y, w, h] = region
        ? [Math.round(region.x * scale), Math.round(region.y * scale), Math.max(1, Math.round(region.width * scale)), Math.max(1, Math.round(region.height * scale))]
        : [0, 0, img.width, img.height]
      const { data } = ctx.getImageData(x, y, w, h)
      const counts: Record<string, number> = Object.fromEntries(Object.keys(colours).map((name) => [name, 0]))
      const seen = new Set<number>()
      const [br, bg, bb] = [data[0], data[1], data[2]]
      let painted = 0
      let sum = 0
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]]
        sum += (r + g + b) / 3
        if (Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb) > 30) painted++
        seen.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4))
        for (const [name, [cr, cg, cb]] of Object.entries(colours)) {
          if (Math.abs(r - cr) <= tolerance && Math.abs(g - cg) <= tolerance && Math.abs(b - cb) <= tolerance) counts[name]++
        }
      }
      const total = data.length / 4
      return { total, counts, painted, distinct: seen.size, brightness: sum / total }
    },
    { dataUrl: `data:${contentType};base64,${image.toString('base64')}`, region: region ?? null, colours, tolerance },
  )
}

export interface ImageStats {
  /** Share of pixels within the tolerance of each asked colour, by the colour's name. */
  shares: Record<string, number>
  distinct: number
}

/** Measures a whole screenshot: how much of it is each named colour, and whether it shows anything at all. */
export async function imageStats(page: Page, image: Buffer, colours: Record<string, Rgb>, tolerance = 40): Promise<ImageStats> {
  const { counts, total, distinct } = await scanPixels(page, image, { colours, tolerance })
  return { shares: Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n / total])), distinct }
}

/** The share of near-black pixels inside `region` (CSS pixels) of an image. */
export async function darkShare(page: Page, image: Buffer, contentType: string, region: Region): Promise<number> {
  // Stay inside the field's border so anti-aliased edges do not count.
  const inset = 4
  const inside = { x: region.x + inset, y: region.y + inset, width: region.width - 2 * inset, height: region.height - 2 * inset }
  // Near-black: every channel under 40.
  const { counts, total } = await scanPixels(page, image, { contentType, region: inside, colours: { dark: [0, 0, 0] }, tolerance: 39 })
  return counts.dark / total
}
