import { randomBytes } from 'node:crypto'
import type { Redis } from 'ioredis'
import type { Notifier } from '../tasks/deps'
import { createNotifier } from './notifier'

/**
 * Wakes long-polls on every server sharing one Redis: a change is announced here at once and published to the
 * others. `subscriber` must be a connection of its own (a subscribed Redis connection can do nothing else).
 */
export function createRedisNotifier(publisher: Redis, subscriber: Redis, topic = 'tandem:notify'): Notifier & { ready: Promise<void> } {
  const local = createNotifier()
  const origin = randomBytes(8).toString('hex')
  subscriber.on('message', (from: string, message: string) => {
    if (from !== topic) return
    try {
      const { origin: sender, channels } = JSON.parse(message) as { origin: string; channels: string[] }
      if (sender !== origin && Array.isArray(channels)) local.notify(...channels.filter((c) => typeof c === 'string'))
    } catch {}
  })
  // Until subscribed (or while Redis is away) polls still re-read the store every pollIntervalMs.
  const ready = subscriber.subscribe(topic).then(
    () => {},
    (error: unknown) => console.error('[tandem] could not subscribe to task changes in Redis', error),
  )
  return {
    ready,
    notify(...channels) {
      local.notify(...channels)
      const named = channels.filter((c): c is string => !!c)
      if (named.length) publisher.publish(topic, JSON.stringify({ origin, channels: named })).catch(() => {})
    },
    wait: local.wait,
  }
}
