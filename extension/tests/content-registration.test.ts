import { describe, expect, it, vi } from 'vitest'
import { createContentRegistration } from '../lib/worker/content-registration'

function setup(origins: string[]) {
  const registered = new Map<string, { id: string; matches?: string[]; js?: string[] }>()
  const scripting = {
    getRegisteredContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => ids.filter((id) => registered.has(id)).map((id) => registered.get(id)!)),
    registerContentScripts: vi.fn(async (scripts: { id: string; matches?: string[] }[]) => void scripts.forEach((s) => registered.set(s.id, s))),
    updateContentScripts: vi.fn(async (scripts: { id: string; matches?: string[] }[]) => void scripts.forEach((s) => registered.set(s.id, s))),
    unregisterContentScripts: vi.fn(async ({ ids }: { ids: string[] }) => void ids.forEach((id) => registered.delete(id))),
  }
  const grants = { origins }
  const permissions = { getAll: vi.fn(async () => grants) }
  const registration = createContentRegistration({ scripting: scripting as never, permissions: permissions as never, file: '/content-scripts/content.js', pageWorldFile: '/content-scripts/listeners.js' })
  return { registration, registered, grants, scripting }
}

describe('createContentRegistration', () => {
  it('registers the content script, and its page-world census, for the granted sites only, and follows each grant and withdrawal', async () => {
    const { registration, registered, grants } = setup(['https://shop.example/*'])
    await registration.sync()
    expect([...registered.values()]).toEqual([
      expect.objectContaining({ id: 'tandem-content', js: ['content-scripts/content.js'], matches: ['https://shop.example/*'], runAt: 'document_idle', allFrames: false }),
      expect.objectContaining({ id: 'tandem-listeners', js: ['content-scripts/listeners.js'], matches: ['https://shop.example/*'], runAt: 'document_start', world: 'MAIN', allFrames: false }),
    ])
    grants.origins = ['https://shop.example/*', 'https://news.example/*']
    await registration.sync()
    expect(registered.get('tandem-content')?.matches).toEqual(['https://shop.example/*', 'https://news.example/*'])
    expect(registered.get('tandem-listeners')?.matches).toEqual(['https://shop.example/*', 'https://news.example/*'])
    grants.origins = []
    await registration.sync()
    expect(registered.size).toBe(0)
  })

  it('registers nothing while nothing is granted, and never throws', async () => {
    const { registration, registered, scripting } = setup([])
    await registration.sync()
    expect(registered.size).toBe(0)
    expect(scripting.registerContentScripts).not.toHaveBeenCalled()
    const refused = setup(['https://a.example/*'])
    refused.scripting.registerContentScripts.mockRejectedValueOnce(new Error('refused'))
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    await expect(refused.registration.sync()).resolves.toBeUndefined()
    // The next grant tries again.
    await refused.registration.sync()
    expect(refused.registered.size).toBe(2)
  })
})
