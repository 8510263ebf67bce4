import { describe, expect, it } from 'vitest'
import type { Action } from '#protocol'
import { checkoutScript } from './fixtures/checkout-script'
import { observationsByAction } from './support/harness'
import { useHarness } from './support/use-harness'

const h = useHarness({ resetSite: true })

const checkout = checkoutScript()

/** Runs the task, approving or rejecting each confirmation it asks for; returns the confirmed action ids. */
async function drive(taskId: string, approve: (action: Action) => boolean) {
  const asked: { actionId: string; type: string; target: unknown; risk: string; approved: boolean }[] = []
  for (;;) {
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED', 'CANCELED'], 60_000)
    if (view.task.status !== 'WAITING_CONFIRMATION') return { view, asked }
    const pending = view.pendingConfirmation!
    const approved = approve(pending.action)
    asked.push({ actionId: pending.actionId, type: pending.action.type, target: pending.action.target?.value, risk: pending.risk, approved })
    await h.confirm(taskId, approved, approved ? undefined : 'not today')
  }
}

describe('shop', () => {
  it('buys an iPhone, with the order placed only after it was confirmed through the API, and evidence around it', async () => {
    const taskId = await h.runScript(checkout, `${h.site.url}/shop/`, 'buy an iPhone 15')
    const { view, asked } = await drive(taskId, () => true)
    expect(view.task.status, JSON.stringify(view.steps, null, 1)).toBe('SUCCEEDED')

    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    const placeOrder = asked.find((a) => a.target === 'Place order')
    expect(placeOrder, JSON.stringify(asked)).toMatchObject({ type: 'click', risk: 'high', approved: true })

    const events = await h.audit(taskId)
    const answered = events.filter((e) => e.type.startsWith('confirmation'))
    expect(answered.map((e) => e.type)).toContain('confirmation.requested')
    const observed = observationsByAction(events).get(placeOrder!.actionId)!
    expect(observed).toHaveLength(1)
    const artifacts = (observed[0].data.artifacts as { name: string; label: string; bytes: number }[]) ?? []
    expect(artifacts.map((a) => a.label).sort()).toEqual(['after', 'before'])
    for (const a of artifacts) {
      const bytes = h.artifact(taskId, a.name)
      expect(bytes.length).toBe(a.bytes)
      expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])) // a JPEG
    }
    // The order went out after the approval, never before.
    const approvedAt = events.findIndex((e) => e.type === 'confirmation.answered' && e.actionId === placeOrder!.actionId)
    const dispatchedAt = events.findIndex((e) => e.type === 'action.dispatched' && e.actionId === placeOrder!.actionId)
    expect(approvedAt).toBeGreaterThan(-1)
    expect(dispatchedAt).toBeGreaterThan(approvedAt)
  })

  it('places no order when the person rejects the checkout', async () => {
    const taskId = await h.runScript(checkout, `${h.site.url}/shop/`, 'buy an iPhone 15')
    const { view, asked } = await drive(taskId, (action) => action.target?.value !== 'Place order')
    expect(view.task.status).toBe('FAILED')
    expect(asked.some((a) => !a.approved)).toBe(true)
    expect(h.site.shop.orders).toEqual([])
    // The cart still holds the phone: everything before the checkout ran, nothing after.
    expect(h.site.shop.cart).toEqual(['iphone-15'])
    const events = await h.audit(taskId)
    const rejected = asked.find((a) => !a.approved)!
    expect(events.some((e) => e.type === 'action.dispatched' && e.actionId === rejected.actionId)).toBe(false)
  })
})
