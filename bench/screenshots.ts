/**
 * Realistic screenshots for the export benchmark: Chromium's own JPEGs (quality 70, as the extension captures)
 * of a generated shop page at several scroll positions, each about 50 KB at 1280×800.
 */
import { launchChromium } from '../test/support/page-lib'
import { generatePage } from './perception'

export async function captureScreenshots(count = 12): Promise<Buffer[]> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.setContent(generatePage(2000))
    const shots: Buffer[] = []
    for (let i = 0; i < count; i++) {
      await page.evaluate((y) => window.scrollTo(0, y), i * 530)
      shots.push(await page.screenshot({ type: 'jpeg', quality: 70 }))
    }
    return shots
  } finally {
    await browser.close()
  }
}
