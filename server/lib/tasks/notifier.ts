import { EventEmitter } from 'node:events'

/** Wakes long-polls when a task or a client's work changes. In-process; pollers also re-read storage periodically. */
export function createNotifier() {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    notify(...channels: (string | undefined)[]) {
      for (const channel of channels) if (channel) emitter.emit(channel)
    },
    /** Resolves true when any channel is notified, false after `ms` or when `signal` aborts. */
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
export type Notifier = ReturnType<typeof createNotifier>
export const taskChannel = (taskId: string) => `task:${taskId}`
export const clientChannel = (clientId: string) => `client:${clientId}`
export const UNBOUND_CHANNEL = 'client:*'
