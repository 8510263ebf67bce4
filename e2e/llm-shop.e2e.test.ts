import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answer, startFakeLlm, type FakeAnswer, type FakeRequest } from '../test/support/fake-llm'
import { startHarness, type Harness } from './support/harness'

/** The index of the first tree line that matches, in the page the model was shown. */
function indexOf(page: string, pattern: RegExp): number | undefined {
  const line = page.split('\n').find((l) => pattern.test(l))
  const match = line && /\[(\d+)\]</.exec(line)
  return match ? Number(match[1]) : undefined
}

/** A model that shops the way the fixture shop expects, reading only what the extension observed. */
function shopper(r: FakeRequest): FakeAnswer {
  const user = String(r.messages.at(-1)?.content ?? '')
  const page = /<untrusted_page[\s\S]*?<\/untrusted_page>/.exec(user)?.[0] ?? ''
  const title = /title="([^"]*)"/.exec(page)?.[1] ?? ''
  const act = (actions: unknown[]) => answer(actions)
  if (title === 'Shop') return act([{ type: 'type', index: indexOf(page, /name=q/), text: 'iPhone 15', submit: true }])
  if (title.startsWith('Results for')) return act([{ type: 'click', index: indexOf(page, /Add iPhone 15 to cart/) }])
  if (title === 'Cart') return act([{ type: 'click', index: indexOf(page, /Proceed to checkout/) }])
  if (title === 'Checkout') {
    const name = page.split('\n').find((l) => /name=fullname/.test(l)) ?? ''
    if (!/Ada Lovelace/.test(name)) return act([{ type: 'type', index: indexOf(page, /name=fullname/), text: 'Ada Lovelace' }])
    return act([{ type: 'click', index: indexOf(page, /Place order/) }])
  }
  if (title === 'Order confirmed') return act([{ type: 'done', success: true, text: 'The order is confirmed.' }])
  return act([{ type: 'done', success: false, text: `unexpected page "${title}"` }])
}

let h: Harness
let llm: Awaited<ReturnType<typeof startFakeLlm>>
beforeAll(async () => {
  llm = await startFakeLlm(shopper)
  h = await startHarness('test', { env: { TANDEM_LLM_BASE_URL: llm.url, TANDEM_LLM_MODEL: 'fake-shopper' } })
})
afterAll(async () => {
  await h?.close()
  await llm?.close()
})

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
