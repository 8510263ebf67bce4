import type { Storage } from 'unstorage'
import type { RequestSource } from './events'

export interface ClientInfo {
  clientId: string
  version?: string
  userAgent?: string
  firstSeen: string
  lastSeen: string
}

// Seen-times are kept in memory and written at most this often, so polling does not turn into disk writes.
const PERSIST_EVERY_MS = 15_000

/** The extensions that have called in: which one is newest gets tasks started without a client. */
export function createClientRegistry(storage: Storage) {
  const known = new Map<string, ClientInfo & { persistedAt: number }>()
  let loaded: Promise<void> | undefined
  const load = () =>
    (loaded ??= (async () => {
      for (const key of await storage.getKeys('clients')) {
        const info = await storage.getItem<ClientInfo>(key)
        if (info?.clientId) known.set(info.clientId, { ...info, persistedAt: Date.now() })
      }
    })())

  return {
    async touch(source: RequestSource & { clientId: string }) {
      await load()
      const now = new Date()
      const previous = known.get(source.clientId)
      const info = {
        clientId: source.clientId,
        version: source.version ?? previous?.version,
        userAgent: source.userAgent ?? previous?.userAgent,
        firstSeen: previous?.firstSeen ?? now.toISOString(),
        lastSeen: now.toISOString(),
        persistedAt: previous?.persistedAt ?? 0,
      }
      const changed = !previous || previous.version !== info.version || previous.userAgent !== info.userAgent
      known.set(source.clientId, info)
      if (changed || now.getTime() - info.persistedAt > PERSIST_EVERY_MS) {
        info.persistedAt = now.getTime()
        const { persistedAt: _, ...stored } = info
        await storage.setItem(`clients:${source.clientId}`, stored as never)
      }
    },
    async mostRecent(): Promise<ClientInfo | undefined> {
      await load()
      let best: ClientInfo | undefined
      for (const info of known.values()) if (!best || info.lastSeen > best.lastSeen) best = info
      return best
    },
    async list(): Promise<ClientInfo[]> {
      await load()
      return [...known.values()].map(({ persistedAt: _, ...info }) => info).sort((a, b) => b.lastSeen.localeCompare(a.lastSeen))
    },
  }
}
export type ClientRegistry = ReturnType<typeof createClientRegistry>
