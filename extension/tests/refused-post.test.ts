import { describe, expect, it } from 'vitest'
import type { HeldRequest } from '#protocol'
import { backFromRefusedPosts } from '../lib/executor/refused-post'
import type { Hold } from '../lib/executor/held-store'

const request = (kind: HeldRequest['kind'], path: string): HeldRequest => ({ method: 'POST', url: `http://shop.test${path}`, origin: 'http://shop.test', path, kind, fields: [] })
const hold = (kind: HeldRequest['kind'], path: string, extra: Partial<Hold> = {}): Hold => ({ id: path, reason: 'form-post', request: request(kind, path), tabId: 3, taskId: 't', stepId: 's', at: 0, ...extra })

/** A tab that went to the refused post's error page, and comes back to the form when sent back. */
function fakeTabs(url: string) {
  const tab = { id: 3, url, status: 'complete' as const }
  const backs: number[] = []
  return {
    backs,
    tab,
    tabs: {
      get: async () => ({ ...tab }),
      goBack: async (id: number) => {
        backs.push(id)
        tab.url = 'http://shop.test/checkout'
      },
    },
  }
}

describe('a refused form post', () => {
  it('takes the tab back from the post’s error page to the form it was sent from', async () => {
    const { tabs, backs, tab } = fakeTabs('http://shop.test/orders')
    await backFromRefusedPosts(tabs as never, [hold('form', '/orders')], 100)
    expect(backs).toEqual([3])
    expect(tab.url).toBe('http://shop.test/checkout')
  })

  it('leaves the tab alone for a refused fetch, a frame’s post or a socket message, and where the page went elsewhere', async () => {
    for (const refused of [hold('fetch', '/orders'), hold('form', '/orders', { sessionId: 'frame' }), hold('websocket', '/orders', { via: 'socket' })]) {
      const { tabs, backs } = fakeTabs('http://shop.test/orders')
      await backFromRefusedPosts(tabs as never, [refused], 50)
      expect(backs, refused.request.kind).toEqual([])
    }
    const { tabs, backs } = fakeTabs('http://shop.test/somewhere-else')
    await backFromRefusedPosts(tabs as never, [hold('form', '/orders')], 50)
    expect(backs).toEqual([])
  })
})
