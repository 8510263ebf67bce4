import type { Storage } from 'unstorage'
import type { RequestSource } from '../http/source'
import type { ClientInfo, ClientRegistry } from '../tasks/deps'

export interface ClientRegistryOptions {
  /**
   * Other servers write to the same storage (Redis): read it on every question and record every call, instead of
   * remembering clients here and writing their seen-times now and then.
   */
  shared?: boolean
}

// Seen-times are kept in memory and written at most this often, so polling does not turn into disk writes.
const PERSIST_EVERY_MS = 15_000

const clientKey = (clientId: string) => `clients:${clientId}`
const newestFirst = (a: ClientInfo, b: ClientInfo) => b.lastSeen.localeCompare(a.lastSeen)

function seen(source: RequestSource & { clientId: string }, previous: ClientInfo | null | undefined, now: Date): ClientInfo {
  return {
    clientId: source.clientId,
    version: source.version ?? previous?.version,
    userAgent: source.userAgent ?? previous?.userAgent,
    firstSeen: previous?.firstSeen ?? now.toISOString(),
    lastSeen: now.toISOString(),
  }
}

async function readAll(storage: Storage): Promise<ClientInfo[]> {
  const items = await storage.getItems<ClientInfo>(await storage.getKeys('clients'))
  return items.map((item) => item.value).filter((info): info is ClientInfo => !!info?.clientId)
}

/** The extensions that have called in, in `storage`: which one is newest gets tasks started without a client. */
export function createClientRegistry(storage: Storage, options: ClientRegistryOptions = {}): ClientRegistry {
  if (options.shared) {
    return {
      async touch(source: RequestSource & { clientId: string }) {
        const previous = await storage.getItem<ClientInfo>(clientKey(source.clientId))
        await storage.setItem(clientKey(source.clientId), seen(source, previous, new Date()) as never)
      },
      async mostRecent(): Promise<ClientInfo | undefined> {
        return (await readAll(storage)).sort(newestFirst)[0]
      },
      list: async (): Promise<ClientInfo[]> => (await readAll(storage)).sort(newestFirst),
    }
  }

  const known = new Map<string, ClientInfo & { persistedAt: number }>()
  let loaded: Promise<void> | undefined
  const load = () =>
    (loaded ??= (async () => {
      for (const info of await readAll(storage)) known.set(info.clientId, { ...info, persistedAt: Date.now() })
    })())

  return {
    async touch(source: RequestSource & { clientId: string }) {
      await load()
      const now = new Date()
      const previous = known.get(source.clientId)
      const info = { ...seen(source, previous, now), persistedAt: previous?.persistedAt ?? 0 }
      const changed = !previous || previous.version !== info.version || previous.userAgent !== info.userAgent
      known.set(source.clientId, info)
      if (changed || now.getTime() - info.persistedAt > PERSIST_EVERY_MS) {
        info.persistedAt = now.getTime()
        const { persistedAt: _, ...stored } = info
        await storage.setItem(clientKey(source.clientId), stored as never)
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
      return [...known.values()].map(({ persistedAt: _, ...info }) => info).sort(newestFirst)
    },
  }
}
