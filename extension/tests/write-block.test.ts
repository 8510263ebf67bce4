import { describe, expect, it, vi } from 'vitest'
import { allowRegexOf, BLOCK_FIRST_RULE_ID, createWriteBlock } from '../lib/executor/write-block'

type Details = { tabId: number; url: string; method: string; type: string; error: string; requestId: string }

function setup() {
  let rules: { id: number; priority: number; condition: Record<string, unknown> }[] = [{ id: 7000, priority: 1, condition: {} }]
  const listeners = new Set<(d: Details) => void>()
  const apis = {
    declarativeNetRequest: {
      getSessionRules: vi.fn(async () => rules as never),
      updateSessionRules: vi.fn(async (u: { removeRuleIds?: number[]; addRules?: never[] }) => {
        rules = [...rules.filter((r) => !u.removeRuleIds?.includes(r.id)), ...(u.addRules ?? [])]
      }),
    },
    blocked: { addListener: (cb: (d: Details) => void) => void listeners.add(cb), removeListener: (cb: (d: Details) => void) => void listeners.delete(cb) },
  }
  const emit = (d: Partial<Details>) => {
    for (const l of listeners) l({ tabId: 7, url: '', method: 'POST', type: 'xmlhttprequest', error: 'net::ERR_BLOCKED_BY_CLIENT', requestId: '1', ...d })
  }
  return { block: createWriteBlock(apis as never), rules: () => rules, listeners, emit, apis }
}

const setupApis = (s: ReturnType<typeof setup>) => s.apis.declarativeNetRequest

describe('the write block (the barrier without a debugger)', () => {
  it('blocks the task tab’s writes and WebSocket openings above the navigation guard, and leaves other rules be', async () => {
    const { block, rules } = setup()
    expect(await block.engage(7, 'https://shop.test/')).toBe(true)
    const mine = rules().filter((r) => r.id >= BLOCK_FIRST_RULE_ID && !r.condition.initiatorDomains)
    expect(mine).toHaveLength(2)
    expect(mine.every((r) => r.priority > 2 && (r.condition.tabIds as number[])[0] === 7)).toBe(true)
    expect(mine[0]!.condition.requestMethods).toEqual(expect.arrayContaining(['post', 'put', 'patch', 'delete']))
    expect(mine[0]!.condition.requestMethods).not.toContain('get')
    // A form posted by script navigates the tab: the top document is a write's carrier too.
    expect(mine[0]!.condition.resourceTypes).toEqual(expect.arrayContaining(['main_frame', 'sub_frame', 'xmlhttprequest', 'ping']))
    expect(mine[1]!.condition.resourceTypes).toEqual(['websocket'])
    await block.release()
    expect(rules().map((r) => r.id)).toEqual([7000])
  })

  it('beside the debugger blocks only WebSocket openings, which CDP cannot pause', async () => {
    const { block, rules, emit } = setup()
    expect(await block.engage(7, 'https://chat.test/', [], 'sockets')).toBe(true)
    const mine = rules().filter((r) => r.id >= BLOCK_FIRST_RULE_ID && !r.condition.initiatorDomains)
    expect(mine.map((r) => r.condition.resourceTypes ?? r.condition.requestMethods)).toEqual([['websocket']])
    emit({ url: 'wss://chat.test/socket', method: 'GET', type: 'websocket', requestId: 'w' })
    expect(block.blocked().writes).toMatchObject([{ request: { kind: 'websocket', origin: 'wss://chat.test' } }])
  })

  it('stops the first request of a window the page opens (any tab but the task’s), and says which', async () => {
    const { block, rules, emit } = setup()
    await block.engage(7, 'https://shop.test/cart', [], 'sockets')
    const windows = rules().filter((r) => r.condition.initiatorDomains)
    expect(windows).toMatchObject([{ priority: 3, condition: { initiatorDomains: ['shop.test'], excludedTabIds: [7], resourceTypes: ['main_frame'] } }])
    emit({ tabId: 9, url: 'https://shop.test/connect', method: 'GET', type: 'main_frame', requestId: 'p' })
    expect(block.popups()).toEqual([{ tabId: 9, url: 'https://shop.test/connect', method: 'GET' }])
    await block.release()
    expect(rules().some((r) => r.condition.initiatorDomains)).toBe(false)
  })

  it('says which writes it blocked on the task tab, leaving reads and telemetry out of the question', async () => {
    const { block, emit } = setup()
    await block.engage(7, 'https://shop.test/')
    emit({ url: 'https://shop.test/api/drafts/7', method: 'DELETE', requestId: 'a' })
    emit({ url: 'https://shop.test/api/search', method: 'POST', requestId: 'b' })
    emit({ url: 'https://www.google-analytics.com/g/collect', method: 'POST', type: 'ping', requestId: 'c' })
    emit({ tabId: 8, url: 'https://shop.test/api/orders', requestId: 'd' })
    emit({ url: 'https://shop.test/api/orders', error: 'net::ERR_FAILED', requestId: 'e' })
    const { writes, dropped } = block.blocked()
    expect(writes).toEqual([expect.objectContaining({ id: 'blocked-a', request: expect.objectContaining({ method: 'DELETE', path: '/api/drafts/7' }) })])
    expect(dropped.map((r) => r.origin)).toEqual(['https://www.google-analytics.com'])
  })

  it('stops listening when released, and a release with nothing engaged still clears rules a stopped worker left', async () => {
    const first = setup()
    await first.block.engage(7, undefined)
    await first.block.release()
    expect(first.listeners.size).toBe(0)
    const left = setup()
    await left.block.engage(7, undefined)
    // A new worker: a fresh block over the same browser, which never engaged.
    const fresh = createWriteBlock({ declarativeNetRequest: setupApis(left), blocked: { addListener: () => undefined, removeListener: () => undefined } } as never)
    await fresh.release()
    expect(left.rules().map((r) => r.id)).toEqual([7000])
  })

  it('sets the next step’s rules only once the last removal landed, however late it lands', async () => {
    const { block, rules, apis } = setup()
    await block.engage(7, 'https://shop.test/')
    const update = apis.declarativeNetRequest.updateSessionRules.getMockImplementation()!
    let land!: () => void
    apis.declarativeNetRequest.updateSessionRules.mockImplementationOnce(async (u) => {
      await new Promise<void>((r) => (land = r))
      return update(u)
    })
    // The step ends without waiting for the removal, and the next one starts at once.
    void block.release()
    const engaged = block.engage(7, 'https://shop.test/', [], 'sockets')
    await new Promise((r) => setTimeout(r, 10))
    land()
    expect(await engaged).toBe(true)
    // Had the removal landed after the new rules, the next step would run with none.
    expect(rules().filter((r) => r.id >= BLOCK_FIRST_RULE_ID).map((r) => r.condition.resourceTypes)).toEqual([['websocket'], ['main_frame']])
  })

  it('lets the writes the person always allows through, above the block, on the task tab only; a GraphQL operation stays blocked', async () => {
    const { block, rules } = setup()
    const drafts = { site: 'https://shop.test', method: 'POST', path: '/api/drafts/*/delete' }
    await block.engage(7, 'https://shop.test/', [drafts, { site: 'https://shop.test', method: 'POST', path: '/graphql', operation: 'Star' }])
    const allows = rules().filter((r) => r.id >= BLOCK_FIRST_RULE_ID + 2 && !r.condition.initiatorDomains)
    expect(allows).toEqual([
      expect.objectContaining({ priority: 4, action: { type: 'allow' }, condition: expect.objectContaining({ tabIds: [7], requestMethods: ['post'], regexFilter: allowRegexOf(drafts) }) }),
    ])
    const re = new RegExp(allowRegexOf(drafts))
    expect(re.test('https://shop.test/api/drafts/8/delete')).toBe(true)
    expect(re.test('https://shop.test/api/drafts/3f2504e0-4f89-11d3-9a0c-0305e82c3301/delete?x=1')).toBe(true)
    expect(re.test('https://shop.test/api/drafts/all/delete')).toBe(false)
    expect(re.test('https://shop.test/api/drafts/8/delete/forever')).toBe(false)
    expect(re.test('https://shop.test.evil.test/api/drafts/8/delete')).toBe(false)
    await block.release()
    expect(rules().map((r) => r.id)).toEqual([7000])
  })
})
