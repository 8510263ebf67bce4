import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { DebuggerError, createTabDebugger } from '../lib/executor/debugger'

/**
 * chrome.debugger as Chrome behaves (checked in Chromium): attachments outlive the worker, attaching a tab the
 * extension already holds fails with "Another debugger is already attached", a command to a tab the extension
 * does not hold fails with "Debugger is not attached", and DevTools may hold the same tab as another client.
 */
function fakeDebugger() {
  const ours = new Set<number>()
  const others = new Set<number>()
  const tabs = new Set([7, 8])
  let hang = false
  const api = {
    attach: vi.fn(async ({ tabId }: { tabId?: number }, _version: string) => {
      if (!tabs.has(tabId!)) throw new Error(`No tab with given id ${tabId}.`)
      if (ours.has(tabId!)) throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`)
      ours.add(tabId!)
    }),
    detach: vi.fn(async ({ tabId }: { tabId?: number }) => {
      if (!ours.delete(tabId!)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`)
    }),
    sendCommand: vi.fn(async ({ tabId }: { tabId?: number }, method: string, _params?: unknown): Promise<object | undefined> => {
      if (!ours.has(tabId!)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`)
      if (hang) return new Promise(() => undefined)
      return { method }
    }),
    getTargets: vi.fn(async () => [...tabs].map((tabId) => ({ tabId, attached: ours.has(tabId) || others.has(tabId), type: 'page' }) as never)),
  }
  return {
    api,
    ours,
    others,
    hang: (value: boolean) => void (hang = value),
    /** Chrome's Cancel on its "started debugging" bar: every tab of the extension is let go of. */
    cancelBar: () => [...ours].map((tabId) => (ours.delete(tabId), tabId)),
  }
}

beforeEach(() => fakeBrowser.reset())

describe('the debugger on a task tab', () => {
  it('attaches on the first command and reuses the attachment for the next ones', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    expect(await cdp.send(7, 'Page.captureScreenshot', { format: 'jpeg' })).toEqual({ method: 'Page.captureScreenshot' })
    expect(await cdp.send(7, 'Fetch.enable')).toEqual({ method: 'Fetch.enable' })
    expect(chrome.api.attach).toHaveBeenCalledTimes(1)
    expect(chrome.api.attach).toHaveBeenCalledWith({ tabId: 7 }, '1.3')
    expect(chrome.ours).toEqual(new Set([7]))
  })

  it('tells whether the tab is still on the same attachment: attaching, letting go and Chrome letting go each change it', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    await cdp.send(7, 'Fetch.enable')
    const first = cdp.attachment(7)
    await cdp.send(7, 'Page.captureScreenshot')
    expect(cdp.attachment(7)).toBe(first)
    await cdp.detach(7)
    expect(cdp.attachment(7)).not.toBe(first)
    await cdp.send(7, 'Fetch.enable')
    const second = cdp.attachment(7)
    await cdp.detached({ tabId: 7 }, 'target_closed')
    expect(cdp.attachment(7)).not.toBe(second)
    expect(cdp.attachment(8)).toBe(0)
  })

  it('uses the attachment a stopped worker left behind, which Chrome reports as "already attached"', async () => {
    const chrome = fakeDebugger()
    await createTabDebugger({ debugger: chrome.api }).send(7, 'Page.enable')
    // A new worker: nothing in memory, the tab still held.
    const fresh = createTabDebugger({ debugger: chrome.api })
    expect(await fresh.send(7, 'Page.captureScreenshot')).toEqual({ method: 'Page.captureScreenshot' })
    expect(chrome.api.attach).toHaveBeenCalledTimes(1)
  })

  it('attaches once for callers that arrive together (the screenshots and another user of the same tab)', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    await Promise.all([cdp.send(7, 'Page.captureScreenshot'), cdp.send(7, 'Fetch.enable'), cdp.send(7, 'Page.enable')])
    expect(chrome.api.attach).toHaveBeenCalledTimes(1)
  })

  it('tells an attachment of its own from another debugger’s: "already attached" with commands refused is someone else', async () => {
    const chrome = fakeDebugger()
    chrome.api.attach.mockRejectedValueOnce(new Error('Another debugger is already attached to the tab with id: 8.'))
    const cdp = createTabDebugger({ debugger: chrome.api })
    await expect(cdp.send(8, 'Page.captureScreenshot')).rejects.toMatchObject({ name: 'DebuggerError', reason: 'busy' })
  })

  it('gives every command and the attach a deadline', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api, commandTimeoutMs: 20, attachTimeoutMs: 20 })
    chrome.hang(true)
    const late = cdp.send(7, 'Page.captureScreenshot', {}, 30)
    await expect(late).rejects.toBeInstanceOf(DebuggerError)
    await expect(late).rejects.toMatchObject({ reason: 'timeout', message: expect.stringContaining('Page.captureScreenshot') })
    chrome.api.attach.mockImplementationOnce(() => new Promise(() => undefined))
    await expect(cdp.send(8, 'Page.enable')).rejects.toMatchObject({ reason: 'timeout', message: expect.stringContaining('Attaching') })
  })

  it('says "failed" with the browser’s words when it refuses to attach', async () => {
    const cdp = createTabDebugger({ debugger: fakeDebugger().api })
    await expect(cdp.send(99, 'Page.enable')).rejects.toMatchObject({ reason: 'failed', message: 'No tab with given id 99.' })
  })

  it('never attaches again to a tab whose debugging the person canceled, until it is allowed, also in a new worker', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    await cdp.send(7, 'Page.enable')
    await cdp.send(8, 'Page.enable')
    await Promise.all(chrome.cancelBar().map((tabId) => cdp.detached({ tabId }, 'canceled_by_user')))
    const fresh = createTabDebugger({ debugger: chrome.api })
    await expect(fresh.send(7, 'Page.captureScreenshot')).rejects.toMatchObject({ reason: 'declined' })
    await expect(fresh.send(8, 'Page.captureScreenshot')).rejects.toMatchObject({ reason: 'declined' })
    expect(chrome.api.attach).toHaveBeenCalledTimes(2)
    await fresh.allow([7])
    expect(await fresh.send(7, 'Page.captureScreenshot')).toEqual({ method: 'Page.captureScreenshot' })
    await expect(fresh.send(8, 'Page.captureScreenshot')).rejects.toMatchObject({ reason: 'declined' })
    await fresh.allow()
    expect(await fresh.send(8, 'Page.captureScreenshot')).toEqual({ method: 'Page.captureScreenshot' })
  })

  it('attaches again after a tab was closed under it (no refusal to remember)', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    await cdp.send(7, 'Page.enable')
    chrome.ours.delete(7)
    await cdp.detached({ tabId: 7 }, 'target_closed')
    expect(await cdp.send(7, 'Page.enable')).toEqual({ method: 'Page.enable' })
  })

  it('detaches only its own attachment, and lists the tabs any debugger holds', async () => {
    const chrome = fakeDebugger()
    const cdp = createTabDebugger({ debugger: chrome.api })
    await cdp.send(7, 'Page.enable')
    chrome.others.add(8)
    expect(await cdp.attachedTabs()).toEqual([7, 8])
    expect(await cdp.detach(8)).toBe(false)
    expect(await cdp.detach(7)).toBe(true)
    expect(await cdp.detach(7)).toBe(false)
    expect(chrome.others).toEqual(new Set([8]))
    expect(await cdp.attachedTabs()).toEqual([8])
  })
})
