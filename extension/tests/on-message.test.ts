import { describe, expect, it, vi } from 'vitest'
import { onWorkerMessage } from '../lib/worker/on-message'

const ORIGIN = 'chrome-extension://abc/'

describe('worker messages', () => {
  it('wakes the executor for the panel, also when the panel is open as a tab', () => {
    const wake = vi.fn(async () => undefined)
    const reply = vi.fn()
    const listener = onWorkerMessage({ wake }, ORIGIN)
    listener({ kind: 'wake', force: true }, { url: `${ORIGIN}sidepanel.html` }, reply)
    listener({ kind: 'wake', force: true }, { url: `${ORIGIN}sidepanel.html`, tab: { id: 3 } as never }, reply)
    expect(wake).toHaveBeenCalledTimes(2)
    expect(wake).toHaveBeenCalledWith(true)
    expect(reply).toHaveBeenCalledWith({ ok: true })
  })

  it('ignores web pages, content scripts and malformed messages', () => {
    const wake = vi.fn(async () => undefined)
    const listener = onWorkerMessage({ wake }, ORIGIN)
    expect(listener({ kind: 'wake', force: true }, { url: 'http://evil.example/', tab: { id: 1 } as never }, vi.fn())).toBe(false)
    expect(listener({ kind: 'explode' }, { url: `${ORIGIN}sidepanel.html` }, vi.fn())).toBe(false)
    expect(wake).not.toHaveBeenCalled()
  })
})
