import { describe, expect, it } from 'vitest'
import type { AllowedWrite } from '#protocol'
import { describeRule } from '../lib/panel/allowed-writes'
import { panelTranslator } from '../lib/panel/i18n'
import { ServerError } from '../lib/server/errors'
import { pendingOrder, pendingRelease, setupPanel as setup, view } from './panel-fakes'

const rule = { site: 'http://shop.test', method: 'POST', path: '/api/drafts/*/delete' }
const kept: AllowedWrite = { ...rule, at: '2026-01-01T00:00:00.000Z', by: 'ext_1' }

describe('panel store: always allow a held write on its site', () => {
  it('sends always with Approve when the box is ticked on a release card, and shows the new rule', async () => {
    const { store, client, allow } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    expect(store.allowedWrites.rules.value).toEqual([])
    store.task.setAlwaysAllow(true)
    client.confirm.mockImplementationOnce(async () => {
      allow([kept])
      return { status: 'RUNNING' as const }
    })
    await store.task.decide(true, 'rel1')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'rel1', approved: true, always: true })
    expect(store.allowedWrites.rules.value).toEqual([kept])
    expect(store.notice.value?.text).toMatch(/without asking/)
  })

  it('never sends always without the tick, with a rejection, or for a card that is no held write', async () => {
    const { store, client, views } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    await store.task.decide(true, 'rel1')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'rel1', approved: true })
    store.task.setAlwaysAllow(true)
    await store.task.decide(false, 'rel1')
    expect(client.confirm.mock.lastCall?.[0]).not.toHaveProperty('always')
    views.task1 = view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() })
    await store.refresh()
    store.task.setAlwaysAllow(true)
    await store.task.decide(true, 'act9')
    expect(client.confirm).toHaveBeenLastCalledWith({ taskId: 'task1', actionId: 'act9', approved: true })
  })

  it('unticks the box when another card replaces the one it was ticked on', async () => {
    const { store, views } = setup({ views: { task1: view('WAITING_CONFIRMATION', { pendingConfirmation: pendingRelease() }) } })
    await store.load()
    store.task.setAlwaysAllow(true)
    views.task1 = view('WAITING_CONFIRMATION', { pendingConfirmation: { ...pendingRelease(), actionId: 'rel2' } })
    await store.refresh()
    expect(store.task.alwaysAllow.value).toBe(false)
  })

  it('lists the rules the server keeps and removes one on request, saying the question is back', async () => {
    const other: AllowedWrite = { site: 'https://gh.test', method: 'POST', path: '/graphql', operation: 'StarRepo', at: kept.at, by: 'api' }
    const { store, client } = setup({ allowed: [kept, other] })
    await store.load()
    expect(store.allowedWrites.rules.value.map((r) => describeRule(r, store.t))).toEqual([
      'POST http://shop.test/api/drafts/*/delete',
      'POST https://gh.test/graphql (operation StarRepo)',
    ])
    await store.allowedWrites.forget(kept)
    expect(client.forgetWrite).toHaveBeenCalledWith(rule)
    expect(store.allowedWrites.rules.value).toEqual([other])
    expect(store.notice.value?.text).toBe('Removed. Tandem asks again before a page sends POST http://shop.test/api/drafts/*/delete.')
  })

  it('keeps the list it has when the server does not answer, and says why a removal failed', async () => {
    const { store, client } = setup({ allowed: [kept] })
    await store.load()
    client.allowedWrites.mockRejectedValueOnce(new ServerError('NOT_ANSWERING', 'no answer'))
    await store.allowedWrites.load()
    expect(store.allowedWrites.rules.value).toEqual([kept])
    client.forgetWrite.mockRejectedValueOnce(new ServerError('UNREACHABLE', 'down'))
    await store.allowedWrites.forget(kept)
    expect(store.allowedWrites.rules.value).toEqual([kept])
    expect(store.notice.value?.tone).toBe('error')
  })

  it('speaks Chinese', () => {
    const t = panelTranslator('zh-CN')
    expect(t('confirm.always')).toBe('以后在此网站上始终允许这类请求')
    expect(t('allowed.title')).toBe('已允许的网站请求')
    expect(describeRule({ ...rule, path: '/graphql', operation: '' }, t)).toBe('POST http://shop.test/graphql (未命名的操作)')
  })
})
