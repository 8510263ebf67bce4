import type { Page } from 'playwright-core'

export interface Region {
  x: number
  y: number
  width: number
  height: number
}

/** The share of near-black pixels inside `region` of an image, measured by decoding it in a browser page. */
export async function darkShare(page: Page, image: Buffer, contentType: string, region: Region): Promise<number> {
  const dataUrl = `data:${contentType};base64,${image.toString('base64')}`
  return page.evaluate(
    async ({ dataUrl, region }) => {
      const img = new Image()
      img.src = dataUrl
      await img.decode()
      const scale = img.width / window.innerWidth
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')!
      ctx.drawImage(img, 0, 0)
      // Stay inside the field's border so anti-aliased edges do not count.
      const inset = 4
      const x = Math.round((region.x + inset) * scale)
      const y = Math.round((region.y + inset) * scale)
      const w = Math.max(1, Math.round((region.width - 2 * inset) * scale))
      const h = Math.max(1, Math.round((region.height - 2 * inset) * scale))
      const { data } = ctx.getImageData(x, y, w, h)
      let dark = 0
      for (let i = 0; i < data.length; i += 4) if (data[i] < 40 && data[i + 1] < 40 && data[i + 2] < 40) dark++
      return dark / (data.length / 4)
    },
    { dataUrl, region },
  )
}

export interface ImageStats {
  /** Share of pixels within `tolerance` of each asked colour, by the colour's name. */
  shares: Record<string, number>
  /** How many distinct colours (quantised) the image holds: a blank page has one or two. */
  distinct: number
}

/** Measures a whole screenshot: how much of it is each named colour, and whether it shows anything at all. */
export async function imageStats(
  page: Page,
  image: Buffer,
  colours: Record<string, [number, number, number]>,
  tolerance = 40,
): Promise<ImageStats> {
  const dataUrl = `data:image/png;base64,${image.toString('base64')}`
  return page.evaluate(
    async ({ dataUrl, colours, tolerance }) => {
      const img = new Image()
      img.src = dataUrl
      await img.decode()
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')!
      ctx.drawImage(img, 0, 0)
      const { data } = ctx.getImageData(0, 0, img.width, img.height)
      const counts: Record<string, number> = Object.fromEntries(Object.keys(colours).map((k) => [k, 0]))
      const seen = new Set<number>()
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]]
        seen.add(((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4))
        for (const [name, [cr, cg, cb]] of Object.entries(colours)) {
          if (Math.abs(r - cr) <= tolerance && Math.abs(g - cg) <= tolerance && Math.abs(b - cb) <= tolerance) counts[name]++
        }
      }
      const total = data.length / 4
      return { shares: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / total])), distinct: seen.size }
    },
    { dataUrl, colours, tolerance },
  )
}
