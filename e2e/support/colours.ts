import type { Page } from 'playwright-core'

export interface ColourCensus {
  /** Pixels within `tolerance` of the wanted colour. */
  matching: number
  /** Pixels that are not the page background (the top-left pixel's colour). */
  painted: number
  total: number
}

/** Counts, in a screenshot decoded by a browser page, the pixels of one colour and those not of the background. */
export async function colourCensus(page: Page, png: Buffer, wanted: [number, number, number], tolerance = 24): Promise<ColourCensus> {
  return page.evaluate(
    async ({ dataUrl, wanted, tolerance }) => {
      const img = new Image()
      img.src = dataUrl
      await img.decode()
      const canvas = document.createElement('canvas')
      canvas.width = img.width
      canvas.height = img.height
      const ctx = canvas.getContext('2d')!
      ctx.drawImage(img, 0, 0)
      const { data } = ctx.getImageData(0, 0, img.width, img.height)
      const [br, bg, bb] = [data[0], data[1], data[2]]
      let matching = 0
      let painted = 0
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]]
        if (Math.abs(r - wanted[0]) <= tolerance && Math.abs(g - wanted[1]) <= tolerance && Math.abs(b - wanted[2]) <= tolerance) matching++
        if (Math.abs(r - br) + Math.abs(g - bg) + Math.abs(b - bb) > 30) painted++
      }
      return { matching, painted, total: data.length / 4 }
    },
    { dataUrl: `data:image/png;base64,${png.toString('base64')}`, wanted, tolerance },
  )
}
