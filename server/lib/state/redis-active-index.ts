import type { Redis } from 'ioredis'
import type { ActiveIndex } from './store'

/** The ids of unfinished tasks as one Redis set, so every server sees the same ones. */
export function createRedisActiveIndex(redis: Redis, key = 'tandem:active'): ActiveIndex {
  return {
    list: () => redis.smembers(key),
    async add(taskId) {
      await redis.sadd(key, taskId)
    },
    async remove(taskId) {
      await redis.srem(key, taskId)
    },
  }
}
