import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import { apiError } from '../http/errors'
import { createKeyedMutex, type WithLock } from './keyed-mutex'

export interface RedisLockOptions {
  /** Prefix of the lock keys in Redis. */
  prefix?: string
  /** How long a lock outlives a holder that stopped renewing it (a crashed server). */
  ttlMs?: number
  /** How long a caller waits for a lock another server holds before it is told to retry. */
  maxWaitMs?: number
  sleep?: (ms: number) => Promise<void>
}

// Deletes (or extends) the lock only while it still holds our token: never someone else's lock taken after ours expired.
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const unavailable = (key: string, why: string) =>
  apiError('UNAVAILABLE', `Task ${key} is ${why}; try again in a moment.`, { retryable: true })

/**
 * A per-key lock shared by every server on one Redis: SET NX PX with a random token, renewed while held, released by
 * compare-and-delete. Callers in this process queue on a keyed mutex first, so a server never competes with itself.
 */
export function createRedisLock(redis: Redis, options: RedisLockOptions = {}): WithLock {
  const { prefix = 'tandem:lock:', ttlMs = 10_000, maxWaitMs = 10_000, sleep = pause } = options
  const local = createKeyedMutex()

  async function acquire(lockKey: string, token: string, key: string) {
    const until = Date.now() + maxWaitMs
    for (let attempt = 0; ; attempt++) {
      let taken: string | null
      try {
        taken = await redis.set(lockKey, token, 'PX', ttlMs, 'NX')
      } catch {
        throw unavailable(key, 'not reachable in Redis (check TANDEM_REDIS_URL)')
      }
      if (taken === 'OK') return
      if (Date.now() >= until) throw unavailable(key, 'busy on another server')
      // Short, growing, jittered waits: changes are milliseconds long, and waiters should not retry in step.
      const backoff = Math.min(5 * 2 ** attempt, 100)
      await sleep(backoff / 2 + Math.random() * (backoff / 2))
    }
  }

  return function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return local(key, async () => {
      const lockKey = prefix + key
      const token = randomBytes(16).toString('hex')
      await acquire(lockKey, token, key)
      let lost = false
      const renew = setInterval(() => {
        redis.eval(RENEW, 1, lockKey, token, ttlMs).then(
          (kept) => {
            if (!kept && !lost) {
              lost = true
              console.error(`[tandem] the lock of task ${key} expired while held; another server may have changed it meanwhile`)
            }
          },
          () => {},
        )
      }, Math.max(50, Math.floor(ttlMs / 3)))
      try {
        return await fn()
      } finally {
        clearInterval(renew)
        // If Redis is gone the lock simply expires after ttlMs.
        await redis.eval(RELEASE, 1, lockKey, token).catch(() => {})
      }
    })
  }
}
