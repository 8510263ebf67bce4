import type { WxtBrowser as Browser } from 'wxt/browser'

const ID = 'tandem-content'
const PAGE_WORLD_ID = 'tandem-listeners'

export interface ContentRegistrationDeps {
  scripting: Pick<Browser['scripting'], 'registerContentScripts' | 'updateContentScripts' | 'unregisterContentScripts' | 'getRegisteredContentScripts'>
  permissions: Pick<Browser['permissions'], 'getAll'>
  /** The built content script (the same file the worker injects when a page does not run it yet). */
  file: string
  /** The built script that answers the content script's census from the page's own world (listeners.content). */
  pageWorldFile?: string
}

/**
 * Registers the content script for the sites the person granted, and only those, so a page a step loads there
 * already runs it (no injection round trip) and has watched itself settle since it started. It stays inert until
 * the worker first asks it something; injecting it on demand stays the fallback (a page loaded before the grant).
 */
export function createContentRegistration(deps: ContentRegistrationDeps) {
  let queue: Promise<void> = Promise.resolve()

  async function sync() {
    const origins = (await deps.permissions.getAll().catch(() => null))?.origins ?? []
    const ids = deps.pageWorldFile ? [ID, PAGE_WORLD_ID] : [ID]
    const registered = new Set((await deps.scripting.getRegisteredContentScripts({ ids }).catch(() => [])).map((s) => s.id))
    if (!origins.length) {
      if (registered.size) await deps.scripting.unregisterContentScripts({ ids: [...registered] })
      return
    }
    const scripts = [
      { id: ID, js: [deps.file.replace(/^\//, '')], matches: origins, runAt: 'document_idle' as const, allFrames: false, persistAcrossSessions: false },
      ...(deps.pageWorldFile
        ? [{ id: PAGE_WORLD_ID, js: [deps.pageWorldFile.replace(/^\//, '')], matches: origins, runAt: 'document_start' as const, world: 'MAIN' as const, allFrames: false, persistAcrossSessions: false }]
        : []),
    ]
    const update = scripts.filter((s) => registered.has(s.id))
    const register = scripts.filter((s) => !registered.has(s.id))
    if (update.length) await deps.scripting.updateContentScripts(update)
    if (register.length) await deps.scripting.registerContentScripts(register)
  }

  return {
    /** Brings the registration in line with the grants (on start, and whenever a grant is added or removed). */
    sync(): Promise<void> {
      const run = queue.then(sync).catch((error: unknown) => console.warn('[tandem] the content script could not be registered', error))
      queue = run
      return run
    },
  }
}
