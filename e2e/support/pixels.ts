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
