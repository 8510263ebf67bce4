import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterAll, beforeAll, describe } from 'vitest'
import { fsAtomicDriver } from '../../server/lib/state/fs-atomic-driver'
import { createKeyedMutex } from '../../server/lib/state/keyed-mutex'
import { connectRedis, type RedisConnections } from '../../server/lib/state/redis'
import { createRedisActiveIndex } from '../../server/lib/state/redis-active-index'
import { createRedisLock } from '../../server/lib/state/redis-lock'
import { createTaskStore } from '../../server/lib/state/store'
import { testTaskStore, type StoreBackend } from '../contracts/task-store'
import { startRedis, type TestRedis } from '../support/redis'

// Short enough that a crashed holder's lock frees itself within the test; renewed every ttl/3 while held.
const LOCK_TTL_MS = 400

describe('the task store on files', () => {
  let root: string
  beforeAll(() => void (root = mkdtempSync(join(tmpdir(), 'tandem-store-'))))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  // One server owns the files: its stores share the process's lock, and a crash takes the lock with it.
  const withLock = createKeyedMutex()
  const storage = () => createStorage({ driver: fsAtomicDriver({ base: join(root, 'state') }) })
  const backend: StoreBackend = {
    open: () => createTaskStore(storage(), { withLock }),
    otherServer: (first) => first,
    crashWhileHolding: async () => {},
  }
  testTaskStore(backend)
})

describe('the task store on Redis', () => {
  let redis: TestRedis
  const connections: RedisConnections[] = []
  beforeAll(async () => void (redis = await startRedis()))
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.close()))
    await redis?.stop()
  })
  // Each store has connections of its own, as separate servers would.
  const open = () => {
    const c = connectRedis(redis.url)
    connections.push(c)
    return createTaskStore(c.storage, {
      withLock: createRedisLock(c.redis, { ttlMs: LOCK_TTL_MS }),
      cache: false,
      activeIndex: createRedisActiveIndex(c.redis),
    })
  }
  const backend: StoreBackend = {
    open,
    otherServer: () => open(),
    async crashWhileHolding(taskId) {
      const c = connectRedis(redis.url)
      connections.push(c)
      await c.redis.set(`tandem:lock:${taskId}`, 'a-server-that-died', 'PX', LOCK_TTL_MS)
    },
  }
  testTaskStore(backend)
})
