import { describe, expect, it, vi } from 'vitest'
import { onContentEvent } from '../lib/worker/on-content-event'

const ID = 'abc'
const ORIGIN = 'chrome-extension://abc/'

describe('content events', () => {
  it('hands a takeover from the task tab’s top frame to the worker and answers with the new state', async () => {
    const handle = vi.fn(async () => ({ state: 'takeover' as const }))
    const reply = vi.fn()
    const keepOpen = onContentEvent({ handle }, ID, ORIGIN)({ kind: 'takeover', input: 'key' }, { id: ID, tab: { id: 4 } as never, frameId: 0, url: 'http://shop.example/' }, reply)
    expect(keepOpen).toBe(true)
    await vi.waitFor(() => expect(reply).toHaveBeenCalledWith({ state: 'takeover' }))
    expect(handle).toHaveBeenCalledWith({ kind: 'takeover', input: 'key' }, 4)
  })

  it('ignores frames, extension pages, other extensions and malformed events', () => {
    const handle = vi.fn(async () => ({ state: 'idle' as const }))
    const listener = onContentEvent({ handle }, ID, ORIGIN)
    const tab = { id: 4 } as never
    expect(listener({ kind: 'takeover', input: 'key' }, { id: ID, tab, frameId: 2, url: 'http://shop.example/' }, vi.fn())).toBe(false)
    expect(listener({ kind: 'takeover', input: 'key' }, { id: ID, tab, frameId: 0, url: `${ORIGIN}sidepanel.html` }, vi.fn())).toBe(false)
    expect(listener({ kind: 'takeover', input: 'key' }, { id: 'other', tab, frameId: 0, url: 'http://shop.example/' }, vi.fn())).toBe(false)
    expect(listener({ kind: 'takeover', input: 'telepathy' }, { id: ID, tab, frameId: 0, url: 'http://shop.example/' }, vi.fn())).toBe(false)
    expect(listener({ kind: 'wake', force: true }, { id: ID, tab, frameId: 0, url: 'http://shop.example/' }, vi.fn())).toBe(false)
    expect(handle).not.toHaveBeenCalled()
  })
})
