import { beforeEach, describe, expect, it } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import { clientIdItem, ensureClientId, readClientId, readSettings, settingsItem, watchedSettings } from '../lib/settings'

beforeEach(() => fakeBrowser.reset())

describe('settings', () => {
  it('keeps the DESIGN contract key and repairs a malformed value', async () => {
    await fakeBrowser.storage.local.set({ 'tandem.settings': { serverUrl: 'http://127.0.0.1:4000/', token: 'abc' } })
    expect(await readSettings()).toEqual({ serverUrl: 'http://127.0.0.1:4000', token: 'abc' })
    await fakeBrowser.storage.local.set({ 'tandem.settings': { serverUrl: 'javascript:alert(1)', token: 3 } })
    expect(await readSettings()).toEqual(settingsItem.fallback)
  })
})

describe('the worker’s settings', () => {
  it('are read once, and again once the person saved new ones', async () => {
    await settingsItem.setValue({ serverUrl: 'http://127.0.0.1:4000', token: 'abc' })
    const settings = watchedSettings()
    expect(await settings()).toEqual({ serverUrl: 'http://127.0.0.1:4000', token: 'abc' })
    await settingsItem.setValue({ serverUrl: 'http://127.0.0.1:4001', token: 'def' })
    await new Promise((r) => setTimeout(r, 0))
    expect(await settings()).toEqual({ serverUrl: 'http://127.0.0.1:4001', token: 'def' })
  })
})

describe('client id', () => {
  it('is made once, even when asked for many times at once, and then read by everyone', async () => {
    const ids = await Promise.all([ensureClientId(), ensureClientId(), ensureClientId()])
    expect(new Set(ids).size).toBe(1)
    expect(ids[0]).toMatch(/^ext_[0-9a-f]{32}$/)
    expect(await ensureClientId()).toBe(ids[0])
    expect(await readClientId()).toBe(ids[0])
    expect(await clientIdItem.getValue()).toBe(ids[0])
  })

  it('is never made by a reader: it waits for the worker to make it', async () => {
    const pending = readClientId(2000, () => new Promise((r) => setTimeout(r, 5)))
    await new Promise((r) => setTimeout(r, 20))
    expect(await clientIdItem.getValue()).toBeNull()
    const made = await ensureClientId()
    expect(await pending).toBe(made)
  })
})
