import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/lib/config'

describe('the task store setting', () => {
  it('keeps tasks in files unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ store: 'fs', redisUrl: 'redis://127.0.0.1:6379' })
    expect(loadConfig({ TANDEM_STORE: 'Redis', TANDEM_REDIS_URL: 'rediss://:pw@cache.internal:6380/2' })).toMatchObject({
      store: 'redis',
      redisUrl: 'rediss://:pw@cache.internal:6380/2',
    })
  })

  it('refuses an unknown store, naming the choices', () => {
    expect(() => loadConfig({ TANDEM_STORE: 'mongo' })).toThrow(ConfigError)
    expect(() => loadConfig({ TANDEM_STORE: 'mongo' })).toThrow(/TANDEM_STORE must be "fs" or "redis"/)
  })

  it('refuses a Redis URL that is not one, without repeating what may hold a password', () => {
    for (const url of ['http://cache:6379', 'cache:6379', 'redis://:hunter2@', 'secret-password@']) {
      let error: unknown
      try {
        loadConfig({ TANDEM_STORE: 'redis', TANDEM_REDIS_URL: url })
      } catch (caught) {
        error = caught
      }
      expect(error, url).toBeInstanceOf(ConfigError)
      expect((error as Error).message).toContain('TANDEM_REDIS_URL must look like redis://')
      expect((error as Error).message).not.toContain(url)
    }
  })

  it('does not judge the Redis URL of a server that keeps its tasks in files', () => {
    expect(loadConfig({ TANDEM_REDIS_URL: 'not a url' }).store).toBe('fs')
  })
})
