import { EventEmitter } from 'node:events'
import type { Notifier } from '../tasks/deps'

/** Wakes long-polls when a task or a client's work changes. In-process; pollers also re-read storage periodically. */
export function createNotifier(): Notifier {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    notify(...channels: (string | undefined)[]) {
      for (const channel of channels) if (channel) emitter.emit(channel)
    },
    wait(channels: string[], ms: number, signal?: AbortSignal): Promise<boolean> {
      return new Promise((resolve) => {
        const finish = (changed: boolean) => {
          clearTimeout(timer)
          for (const c of channels) emitter.off(c, onChange)
          signal?.removeEventListener('abort', onAbort)
          resolve(changed)
        }
        const onChange = () => finish(true)
        const onAbort = () => finish(false)
        const timer = setTimeout(() => finish(false), Math.max(0, ms))
        for (const c of channels) emitter.on(c, onChange)
        signal?.addEventListener('abort', onAbort)
      })
    },
  }
}
