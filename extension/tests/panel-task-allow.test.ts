import { describe, expect, it } from 'vitest'
import type { AskAlwaysEntry, HarmlessWrite } from '#protocol'
import { askRuleOf, describeAskRule, describeHarmless } from '../lib/panel/ask-always'
import { panelTranslator } from '../lib/panel/i18n'
import { ServerError } from '../lib/server/errors'
import { pendingOrder, pendingRelease, setupPanel as setup, view } from './panel-fakes'

const cartChange: HarmlessWrite = {
  kind: 'cart',
  request: { method: 'POST', url: 'https://shop.example/cart/change.js', origin: 'https://shop.example', path: '/cart/change.js', kind: 'fetch', fields: [] },
}
const asked: AskAlwaysEntry = { site: 'shop.example', kind: 'cart', at: '2026-01-01T00:00:00.000Z', by: 'ext_1' }

describe('panel store: allow requests like this for the rest of this task', () => {
  it('sends forTask with Approve when that box is ticked on a release card, and says the task goes on unasked', async () => {
    const { store, client } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    store.task.setAllowForTask(true)
    await store.task.decide(true, 'rel1')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'rel1', approved: true, forTask: true })
    expect(store.notice.value?.text).toBe('Approved. Requests like this are sent without asking for the rest of this task.')
    // Nothing was kept on the site: the list of allowed writes is not read again for it.
    expect(client.allowedWrites).toHaveBeenCalledTimes(1)
  })

  it('ticks one scope at a time: the later tick wins', async () => {
    const { store, client } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    store.task.setAllowForTask(true)
    store.task.setAlwaysAllow(true)
    expect(store.task.allowForTask.value).toBe(false)
    store.task.setAllowForTask(true)
    expect(store.task.alwaysAllow.value).toBe(false)
    await store.task.decide(true, 'rel1')
    expect(client.confirm.mock.lastCall?.[0]).not.toHaveProperty('always')
  })

  it('never sends forTask with a rejection, for a card that is no held write, or once another card replaced it', async () => {
    const { store, client, views } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    store.task.setAllowForTask(true)
    await store.task.decide(false, 'rel1')
    expect(client.confirm.mock.lastCall?.[0]).not.toHaveProperty('forTask')
    store.task.setAllowForTask(true)
    views.task1 = view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() })
    await store.refresh()
    expect(store.task.allowForTask.value).toBe(false)
    store.task.setAllowForTask(true)
    await store.task.decide(true, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
  })
})

describe('panel store: harmless writes and the kinds always asked about', () => {
  it('says what was sent without asking, and the rule "always ask" makes of it', () => {
    const t = panelTranslator('en')
    expect(describeHarmless(cartChange, t)).toBe('Sent without asking: cart change to shop.example /cart/change.js')
    expect(askRuleOf(cartChange)).toEqual({ site: 'shop.example', kind: 'cart' })
    expect(askRuleOf({ ...cartChange, request: { ...cartChange.request, url: 'data:text/plain,x', origin: '' } })).toBeNull()
  })

  it('turns a kind into always asked on its site and back, keeping the list the server answers', async () => {
    const { store, client } = setup()
    await store.load()
    expect(store.askAlways.rules.value).toEqual([])
    const rule = askRuleOf(cartChange)!
    expect(store.askAlways.isAsked(rule)).toBe(false)
    await store.askAlways.toggle(rule)
    expect(client.addAskAlways).toHaveBeenCalledWith({ site: 'shop.example', kind: 'cart' })
    expect(store.askAlways.isAsked(rule)).toBe(true)
    expect(store.notice.value?.text).toBe('From the next step, Tandem asks before a page sends cart changes on shop.example.')
    await store.askAlways.toggle(rule)
    expect(client.forgetAskAlways).toHaveBeenCalledWith({ site: 'shop.example', kind: 'cart' })
    expect(store.askAlways.rules.value).toEqual([])
    expect(store.notice.value?.text).toBe('Tandem sends cart changes on shop.example without asking again.')
  })

  it('lists the kinds the server keeps, keeps them when it does not answer, and says why a change failed', async () => {
    const { store, client } = setup({ asked: [asked] })
    await store.load()
    expect(store.askAlways.rules.value.map((r) => describeAskRule(r, store.t))).toEqual(['cart changes on shop.example'])
    client.askAlways.mockRejectedValueOnce(new ServerError('NOT_ANSWERING', 'no answer'))
    await store.askAlways.load()
    expect(store.askAlways.rules.value).toEqual([asked])
    client.forgetAskAlways.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'down'))
    await store.askAlways.forget(asked)
    expect(store.askAlways.rules.value).toEqual([asked])
    expect(store.notice.value?.tone).toBe('error')
  })

  it('speaks Chinese', () => {
    const t = panelTranslator('zh-CN')
    expect(t('confirm.forTask')).toBe('本任务中此类请求都允许')
    expect(describeHarmless(cartChange, t)).toBe('未询问即发送：购物车变更，发往 shop.example /cart/change.js')
    expect(t('harmless.askAlways', { kinds: t('harmless.kinds.cart'), site: 'shop.example' })).toBe('在 shop.example 上发送购物车变更前总是询问')
    expect(describeAskRule(asked, t)).toBe('shop.example 上的购物车变更')
  })
})
