import type { Page } from 'playwright-core'
import { DemoFailure, type DemoText } from './messages'

const APPROVE = /Approve|批准/
const RELOAD_EVERY_MS = 5_000

/**
 * Clicks Approve on the side panel's confirmation card, as the person would. There is deliberately no other
 * way to approve here: a panel that cannot show the card is the failure the demo exists to catch.
 */
export async function approveInPanel(panel: Page, t: DemoText, timeoutMs = 30_000): Promise<void> {
  const card = panel.getByTestId('confirmation').first()
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const wait = Math.min(RELOAD_EVERY_MS, Math.max(0, deadline - Date.now()))
    const shown = await card.waitFor({ state: 'visible', timeout: wait }).then(
      () => true,
      () => false,
    )
    if (shown) break
    if (Date.now() >= deadline) throw new DemoFailure('approval', t('error.noCard', { s: Math.round(timeoutMs / 1000) }))
    // A panel that missed the change shows it once reopened, as it would for a person.
    await panel.reload()
  }
  const button = card.getByRole('button', { name: APPROVE }).first()
  if (!(await button.count())) throw new DemoFailure('approval', t('error.noButton'))
  await button.click()
}
