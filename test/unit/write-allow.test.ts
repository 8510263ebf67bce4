import { describe, expect, it } from 'vitest'
import { Action, allowedBy, classifyRequest, ConfirmBody, generalisePath, HeldRequest, writeRuleOf, type HeldRequestInput } from '#protocol'

const request = (over: Partial<HeldRequestInput> = {}) =>
  HeldRequest.parse({ method: 'POST', url: 'https://shop.test/api/drafts/7/delete', origin: 'https://shop.test', path: '/api/drafts/7/delete', kind: 'fetch', ...over })
const at = (path: string, over: Partial<HeldRequestInput> = {}) => request({ path, url: `https://shop.test${path}`, ...over })

describe('generalisePath', () => {
  it.each([
    ['/api/drafts/7/delete', '/api/drafts/*/delete'],
    ['/orders/123456/items/42', '/orders/*/items/*'],
    ['/doc/3f2504e0-4f89-11d3-9a0c-0305e82c3301/share', '/doc/*/share'],
    ['/commit/9fceb02d0ae598e95dc970b74767f19372d61af8', '/commit/*'],
    ['/v1/items/AbC123dEf456GhI789jk', '/v1/items/*'],
    ['/api/notes/••••/archive', '/api/notes/*/archive'],
    ['/', '/'],
    ['', '/'],
  ])('%s → %s', (path, general) => expect(generalisePath(path)).toBe(general))

  it.each(['/api/v2/cart', '/api/drafts/delete', '/facade/added', '/user/settings/notifications', '/api/deleteAllDrafts'])('keeps the words of %s', (path) => {
    expect(generalisePath(path)).toBe(path)
  })
})

describe('writeRuleOf and allowedBy', () => {
  const rule = writeRuleOf(request())

  it('names a write by its site, method and path with ids as *', () => {
    expect(rule).toEqual({ site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' })
  })

  it('lets the same kind of request on another record through', () => {
    expect(allowedBy([rule], at('/api/drafts/8/delete'))).toBe(true)
    expect(allowedBy([rule], at('/api/drafts/8/delete', { fields: [{ name: 'id', value: '8' }] }))).toBe(true)
  })

  it('lets nothing else through: another site, method, action or depth', () => {
    expect(allowedBy([rule], request({ origin: 'https://shop.test:8443' }))).toBe(false)
    expect(allowedBy([rule], request({ origin: 'https://other.test' }))).toBe(false)
    expect(allowedBy([rule], request({ method: 'DELETE' }))).toBe(false)
    expect(allowedBy([rule], at('/api/drafts/8/publish'))).toBe(false)
    expect(allowedBy([rule], at('/api/drafts/8'))).toBe(false)
    expect(allowedBy([rule], at('/api/drafts/all/delete'))).toBe(false)
    expect(allowedBy([], request())).toBe(false)
    expect(allowedBy(undefined, request())).toBe(false)
  })

  it('never allows a request with no site (a data: or blob: URL)', () => {
    const blank = request({ origin: '', path: '', url: 'data:••••' })
    expect(allowedBy([writeRuleOf(blank)], blank)).toBe(false)
  })

  it('tells GraphQL mutations on one endpoint apart by their name', () => {
    const mutation = (name?: string) => at('/graphql', { operation: { type: 'mutation', ...(name ? { name } : {}) } })
    const star = writeRuleOf(mutation('StarRepo'))
    expect(star).toEqual({ site: 'https://shop.test', method: 'POST', path: '/graphql', operation: 'StarRepo' })
    expect(allowedBy([star], mutation('StarRepo'))).toBe(true)
    expect(allowedBy([star], mutation('DeleteRepo'))).toBe(false)
    expect(allowedBy([star], mutation())).toBe(false)
    expect(allowedBy([writeRuleOf(at('/graphql'))], mutation('DeleteRepo'))).toBe(false)
  })

  it('matches what the barrier classifies, with ids the URL rules mask', () => {
    const held = (url: string) => classifyRequest({ method: 'post', url, resourceType: 'Fetch', pageUrl: 'https://shop.test/' }).request
    const first = held('https://shop.test/api/files/a8F3kQ9zLm2Xp7Rt4Wv1Yb6N/trash')
    expect(allowedBy([writeRuleOf(first)], held('https://shop.test/api/files/Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2/trash?x=1'))).toBe(true)
  })
})

describe('the schemas that carry rules', () => {
  it('a confirmation may ask to always allow', () => {
    expect(ConfirmBody.parse({ taskId: 't1', actionId: 'a1', approved: true, always: true }).always).toBe(true)
    expect(ConfirmBody.safeParse({ taskId: 't1', actionId: 'a1', approved: true, always: 'yes' }).success).toBe(false)
    expect(ConfirmBody.parse({ taskId: 't1', actionId: 'a1', approved: true, forTask: true }).forTask).toBe(true)
    // One answer gives one scope.
    expect(ConfirmBody.safeParse({ taskId: 't1', actionId: 'a1', approved: true, always: true, forTask: true }).success).toBe(false)
  })

  it('an action carries at most 200 rules', () => {
    const base = { taskId: 't', actionId: 'a', seq: 1, type: 'click', params: {}, risk: 'low', requiresConfirmation: false }
    const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ site: 'https://shop.test', method: 'POST', path: `/p${i}` }))
    expect(Action.safeParse({ ...base, allowWrites: rules(200) }).success).toBe(true)
    expect(Action.safeParse({ ...base, allowWrites: rules(201) }).success).toBe(false)
  })
})
