import type { Page } from 'playwright-core'

/**
 * A pointer drag from one text to another in small moves, as a hand makes it: dnd-kit and jQuery UI sortable start
 * a drag only after the pointer has moved, and settle into the new order after the drop.
 */
export async function pointerDrag(p: Page, from: string, to: string): Promise<void> {
  const a = (await p.getByText(from, { exact: true }).boundingBox())!
  const b = (await p.getByText(to, { exact: true }).boundingBox())!
  await p.mouse.move(a.x + a.width / 2, a.y + a.height / 2)
  await p.mouse.down()
  await p.mouse.move(b.x + b.width / 2, b.y + b.height / 2 - 4, { steps: 12 })
  await p.mouse.up()
  await p.waitForTimeout(300)
}
