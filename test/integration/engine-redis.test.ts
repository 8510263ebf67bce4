import { afterAll, beforeAll } from 'vitest'
import { connectRedis } from '../../server/lib/state/redis'
import { testEngine } from '../contracts/engine'
import { startRedis, type TestRedis } from '../support/redis'
import { startServer } from '../support/server'

let redis: TestRedis
beforeAll(async () => void (redis = await startRedis()))
afterAll(() => redis?.stop())

testEngine({
  start: () => startServer({ redisUrl: redis.url }),
  async storedObservations() {
    const { storage, close } = connectRedis(redis.url)
    try {
      const keys = await storage.getKeys('observations')
      return (await storage.getItems(keys)).map(({ value }) => JSON.stringify(value))
    } finally {
      await close()
    }
  },
})
