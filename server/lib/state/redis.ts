import type { Redis } from 'ioredis'
import { createStorage, type Storage } from 'unstorage'
import redisDriver from 'unstorage/drivers/redis'

export interface RedisConnections {
  /** Task state under `tandem:` keys (unstorage's redis driver). */
  storage: Storage
  /** The driver's connection, for locks and sets. */
  redis: Redis
  /** A second connection that only listens for changes other servers publish. */
  subscriber: Redis
  close(): Promise<void>
}

/** Connects to the Redis at `url`; commands wait (and fail after a few retries) while it is away. */
export function connectRedis(url: string, base = 'tandem'): RedisConnections {
  const driver = redisDriver({ url, base, maxRetriesPerRequest: 3 })
  const redis = driver.getInstance!() as Redis
  const subscriber = redis.duplicate()
  // ioredis reconnects by itself; without a listener every failed attempt would be an unhandled error event.
  let reported = false
  const onError = (error: Error) => {
    if (reported) return
    reported = true
    console.error(`[tandem] Redis (TANDEM_REDIS_URL) is not answering: ${error.message}`)
  }
  redis.on('error', onError)
  subscriber.on('error', onError)
  redis.on('ready', () => (reported = false))
  return {
    storage: createStorage({ driver }),
    redis,
    subscriber,
    async close() {
      subscriber.disconnect()
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}
