import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectRedis, type RedisConnections } from '../../server/lib/state/redis'
import { createRedisLock } from '../../server/lib/state/redis-lock'
import { createRedisNotifier } from '../../server/lib/state/redis-notifier'
import { startRedis, type TestRedis } from '../support/redis'

let redis: TestRedis
const connections: RedisConnections[] = []
const connect = () => {
  const c = connectRedis(redis.url)
  connections.push(c)
  return c
}
beforeAll(async () => void (redis = await startRedis()))
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()))
  await redis?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the Redis lock', () => {
  it('queues callers of one server in order without contending in Redis', async () => {
    const { redis: client } = connect()
    let attempts = 0
    const set = client.set.bind(client)
    client.set = ((...args: Parameters<typeof set>) => {
      attempts++
      return set(...args)
    }) as typeof client.set
    const withLock = createRedisLock(client)
    const order: number[] = []
    await Promise.all(Array.from({ length: 10 }, (_, i) => withLock('queued', async () => void order.push(i))))
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(attempts).toBe(10)
    expect(await client.exists('tandem:lock:queued')).toBe(0)
  })

  it('keeps a long change locked past its ttl, and a waiter from another server gets UNAVAILABLE after its bounded wait', async () => {
    const a = createRedisLock(connect().redis, { ttlMs: 150 })
    const b = createRedisLock(connect().redis, { ttlMs: 150, maxWaitMs: 300 })
    let entered = false
    let bEntered = false
    const holding = a('long', async () => {
      entered = true
      await sleep(700)
      return bEntered
    })
    while (!entered) await sleep(5)
    await expect(b('long', async () => void (bEntered = true))).rejects.toMatchObject({ statusCode: 503, data: { code: 'UNAVAILABLE' } })
    expect(await holding).toBe(false)
    await expect(b('long', async () => 'then free')).resolves.toBe('then free')
  })

  it('never deletes a lock that another holder took after its own expired', async () => {
    const { redis: client } = connect()
    const withLock = createRedisLock(client, { ttlMs: 5000 })
    await withLock('taken', async () => {
      // As if this holder had stalled past its ttl and another server had taken the lock.
      await client.set('tandem:lock:taken', 'someone-else', 'PX', 5000)
    })
    expect(await client.get('tandem:lock:taken')).toBe('someone-else')
    await client.del('tandem:lock:taken')
  })

  it('says Redis is unreachable with UNAVAILABLE, naming the setting', async () => {
    const gone = connectRedis('redis://127.0.0.1:1')
    connections.push(gone)
    const withLock = createRedisLock(gone.redis)
    const error = await withLock('nowhere', async () => 'ran').catch((e: unknown) => e)
    expect(error).toMatchObject({ statusCode: 503, data: { code: 'UNAVAILABLE' } })
    expect(String((error as Error).message)).toContain('TANDEM_REDIS_URL')
  })
})

describe('the Redis notifier', () => {
  it("wakes a long-poll on one server when another server's task changes", async () => {
    const first = connect()
    const second = connect()
    const a = createRedisNotifier(first.redis, first.subscriber)
    const b = createRedisNotifier(second.redis, second.subscriber)
    await Promise.all([a.ready, b.ready])
    const woken = a.wait(['task:t1'], 60_000)
    const untouched = a.wait(['task:t2'], 300)
    b.notify('task:t1')
    expect(await woken).toBe(true)
    expect(await untouched).toBe(false)
  })
})
