import { agent, PNG } from './agent'
import type { TestServer } from './server'

/**
 * Runs a two-step task to the end as the extension would report it: the cart (with a picture), the picture of
 * "Place order" taken for its card, then the click approved with a reason and pictured before and after.
 */
export async function recordApprovedOrder(server: TestServer, { goal, title }: { goal?: string; title?: string } = {}): Promise<string> {
  const a = agent(server)
  const { taskId } = await a.start({
    goal,
    script: [
      { type: 'navigate', url: 'http://127.0.0.1:9/cart' },
      { type: 'click', text: 'Place order' },
    ],
  })
  await a.report(await a.nextAction(taskId), { ...(title ? { title } : {}), artifacts: [{ label: 'observation', contentType: 'image/png', data: PNG }] })
  const pending = (await a.waitForConfirmation(taskId, { ...(title ? { title } : {}), artifacts: [{ label: 'screenshot', contentType: 'image/png', data: PNG }] })).pendingConfirmation!
  await a.confirm(taskId, pending.actionId, true, 'looks right')
  await a.report(await a.nextAction(taskId), {
    artifacts: [
      { label: 'before', contentType: 'image/png', data: PNG },
      { label: 'after', contentType: 'image/png', data: PNG },
    ],
  })
  await a.waitFor(taskId, 'SUCCEEDED')
  return taskId
}
