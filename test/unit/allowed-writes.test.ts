import { createStorage } from 'unstorage'
import { describe, expect, it, vi } from 'vitest'
import { MAX_ALLOWED_WRITES } from '#protocol'
import { createAllowedWrites } from '../../server/lib/state/allowed-writes'

const rule = (path: string, extra: Record<string, string> = {}) => ({ site: 'https://shop.test', method: 'POST', path, ...extra })

describe('the writes always allowed, as the server keeps them', () => {
  it('adds each kind once, keeping when and by whom it was first allowed, the newest first', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-01T00:00:00Z') })
    try {
      const allowed = createAllowedWrites(createStorage())
      await allowed.add([rule('/a/*/delete')], 'ext_1')
      vi.setSystemTime(Date.parse('2026-01-02T00:00:00Z'))
      await allowed.add([rule('/a/*/delete'), { ...rule('/b'), method: 'put' }], 'ext_2')
      expect(await allowed.list()).toEqual([
        { ...rule('/b'), method: 'PUT', at: '2026-01-02T00:00:00.000Z', by: 'ext_2' },
        { ...rule('/a/*/delete'), at: '2026-01-01T00:00:00.000Z', by: 'ext_1' },
      ])
    } finally {
      vi.useRealTimers()
    }
  })

  it('tells a GraphQL operation apart from the bare endpoint, and forgets exactly the rule named', async () => {
    const allowed = createAllowedWrites(createStorage())
    await allowed.add([rule('/graphql', { operation: 'Star' }), rule('/graphql')], 'api')
    expect(await allowed.list()).toHaveLength(2)
    const after = await allowed.forget(rule('/graphql', { operation: 'Star' }))
    expect(after.map((r) => r.operation)).toEqual([undefined])
    expect(await allowed.forget({ ...rule('/graphql'), method: 'post' })).toEqual([])
  })

  it('keeps at most MAX_ALLOWED_WRITES, letting the oldest go', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    vi.useFakeTimers({ now })
    try {
      const allowed = createAllowedWrites(createStorage())
      for (let i = 0; i < MAX_ALLOWED_WRITES + 3; i++) {
        vi.setSystemTime((now += 1000))
        await allowed.add([rule(`/p${i}`)], 'api')
      }
      const list = await allowed.list()
      expect(list).toHaveLength(MAX_ALLOWED_WRITES)
      expect(list.at(-1)?.path).toBe('/p3')
      expect(list[0]?.path).toBe(`/p${MAX_ALLOWED_WRITES + 2}`)
    } finally {
      vi.useRealTimers()
    }
  })

  it('shared (Redis), sees what another server added; alone, reads storage once and trusts its own changes', async () => {
    const storage = createStorage()
    const one = createAllowedWrites(storage, { shared: true })
    const two = createAllowedWrites(storage, { shared: true })
    await one.add([rule('/x')], 'a')
    expect((await two.list()).map((r) => r.path)).toEqual(['/x'])
    const alone = createAllowedWrites(storage)
    expect(await alone.list()).toHaveLength(1)
    const getKeys = vi.spyOn(storage, 'getKeys')
    await alone.list()
    expect(getKeys).not.toHaveBeenCalled()
  })

  it('skips a stored value that is not a rule instead of failing the list', async () => {
    const storage = createStorage()
    await storage.setItem('writes:allowed:junk', { site: 3 } as never)
    const allowed = createAllowedWrites(storage)
    await allowed.add([rule('/ok')], 'a')
    expect((await allowed.list()).map((r) => r.path)).toEqual(['/ok'])
  })
})
