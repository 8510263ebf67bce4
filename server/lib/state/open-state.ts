import { join } from 'node:path'
import type { Redis } from 'ioredis'
import { createStorage, type Storage } from 'unstorage'
import type { Config } from '../config'
import { fsAtomicDriver } from './fs-atomic-driver'
import { connectRedis } from './redis'

/** Where shared state lives (tasks, clients, allowed writes, agent tokens): the data dir's files, or Redis. */
export interface StateStorage {
  storage: Storage
  /** Set when several servers share the state through Redis. */
  redis?: { redis: Redis; subscriber: Redis }
  close(): Promise<void>
}

/** Opens the configured state storage; the server and the token CLI read and write the same keys. */
export function openStateStorage(config: Pick<Config, 'store' | 'redisUrl' | 'dataDir'>): StateStorage {
  if (config.store === 'redis') {
    const { storage, redis, subscriber, close } = connectRedis(config.redisUrl)
    return { storage, redis: { redis, subscriber }, close }
  }
  const storage = createStorage({ driver: fsAtomicDriver({ base: join(config.dataDir, 'state') }) })
  return { storage, close: () => storage.dispose() }
}
