import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../test/support/fake-llm'
import { shopper, shopperEnv } from './support/shopper'
import { useHarness } from './support/use-harness'

let llm: FakeLlm
beforeAll(async () => {
  llm = await startFakeLlm(shopper)
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: shopperEnv(llm) }) })

describe('an LLM-planned task in the real extension', () => {
  it('buys in the fixture shop, planning from real observations, with the order placed only after approval', async () => {
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Buy an iPhone 15 for Ada Lovelace', clientId: h.clientId, startUrl: `${h.site.url}/shop/` })
    expect(started.status).toBe(200)
    const taskId = started.body.data.taskId as string
    await h.ext.wake()
    const approved: string[] = []
    for (;;) {
      const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
      if (view.task.status !== 'WAITING_CONFIRMATION') {
        expect(view.task.status, JSON.stringify({ error: view.task.error, steps: view.steps }, null, 1)).toBe("SUCCEEDED")
        expect(view.task.result?.text).toBe('The order is confirmed.')
        expect(view.usage.llmCalls).toBeGreaterThanOrEqual(5)
        break
      }
      approved.push(String(view.pendingConfirmation!.action.target?.value))
      expect(h.site.shop.orders).toEqual([]) // nothing was ordered while the person had not approved
      await h.confirm(taskId, true)
    }
    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    // Every prompt carried a real page from the extension inside the untrusted block.
    const prompts = llm.requests.map((r) => String(r.messages.at(-1)?.content ?? ''))
    expect(prompts.length).toBeGreaterThanOrEqual(5)
    for (const p of prompts) expect(p).toMatch(/<untrusted_page url="http:\/\/127\.0\.0\.1:\d+\/shop/)
    expect(approved.length).toBeGreaterThanOrEqual(1)
  })
})
