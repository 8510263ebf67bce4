import { describe, expect, it } from 'vitest'
import { classifyRisk } from '#protocol'
import { pendingReasons } from '../lib/panel/reasons'
import { pendingOrder, setupPanel, view } from './panel-fakes'

const assessed = classifyRisk({ actionType: 'click', params: {}, element: { tag: 'button', text: 'Place order' } })
const withDetails = () => ({ ...pendingOrder(), reasons: assessed.reasons, reasonDetails: assessed.details })

describe('panel: why the pending step is risky, in the panel language', () => {
  it('says the reasons in Chinese when the browser speaks Chinese', async () => {
    const { store } = setupPanel({ lang: 'zh-CN', views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: withDetails() }) } })
    await store.load()
    expect(pendingReasons(store.task.pending.value!, store.lang)).toEqual(['点击“Place order”，看起来像购买或付款'])
  })

  it('says them in English otherwise, exactly as the server wrote them', async () => {
    const { store } = setupPanel({ lang: 'en', views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: withDetails() }) } })
    await store.load()
    expect(pendingReasons(store.task.pending.value!, store.lang)).toEqual(['clicks "Place order", which looks like a purchase or payment'])
  })

  it('falls back to the English sentences when the server sent no details', async () => {
    const { store } = setupPanel({ lang: 'zh-CN', views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    expect(pendingReasons(store.task.pending.value!, store.lang)).toEqual(['places an order'])
  })
})
