import type { ArtifactLabel, ArtifactUpload, ObservationError, RedactSettings } from '#protocol'
import type { ContentChannel } from './content-channel'
import type { Tab, TabsApi } from './task-tab'

export interface ScreenshotDeps {
  tabs: Pick<TabsApi, 'captureVisibleTab'>
  content: Pick<ContentChannel, 'ask' | 'ensure'>
  /** Chrome allows two captures a second; stay under it. */
  minIntervalMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export type Shot = { artifact: ArtifactUpload } | { error: ObservationError }

const unavailable = (message: string): Shot => ({ error: { code: 'SCREENSHOT_UNAVAILABLE', message } })

/**
 * Screenshots of the task tab with password and card fields and card numbers masked (and emails and phone
 * numbers when the server hides them), at most two a second.
 */
export function createScreenshotter(deps: ScreenshotDeps) {
  const minInterval = deps.minIntervalMs ?? 550
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  let last = Number.NEGATIVE_INFINITY
  let queue: Promise<unknown> = Promise.resolve()

  async function grab(windowId: number): Promise<string> {
    const wait = last + minInterval - now()
    if (wait > 0) await sleep(wait)
    last = now()
    try {
      return await deps.tabs.captureVisibleTab(windowId, { format: 'jpeg', quality: 70 })
    } catch (error) {
      // A worker that just restarted does not know when the last capture was: retry once past the quota.
      if (!/MAX_CAPTURE|quota|per second/i.test(String((error as Error)?.message))) throw error
      await sleep(minInterval * 2)
      last = now()
      return deps.tabs.captureVisibleTab(windowId, { format: 'jpeg', quality: 70 })
    }
  }

  async function capture(tab: Tab & { id: number }, label: ArtifactLabel, redact?: RedactSettings): Promise<Shot> {
    if (!tab.active) return unavailable('The task tab is not the visible tab, so it cannot be captured.')
    try {
      await deps.content.ensure(tab.id)
      const { masked } = await deps.content.ask(tab.id, { kind: 'mask', restoreAfterMs: 3000, ...(redact ? { redact } : {}) }, 2000)
      if (!masked) return unavailable('Sensitive fields could not be masked, so no screenshot was taken.')
    } catch {
      return unavailable('Sensitive fields could not be masked, so no screenshot was taken.')
    }
    try {
      const dataUrl = await grab(tab.windowId)
      const match = /^data:(image\/(?:jpeg|png|webp));base64,(.+)$/.exec(dataUrl)
      if (!match) return unavailable('The browser returned no image.')
      return { artifact: { label, contentType: match[1] as ArtifactUpload['contentType'], data: match[2] } }
    } catch (error) {
      return unavailable(`The browser refused the screenshot: ${(error as Error)?.message ?? error}`)
    } finally {
      await deps.content.ask(tab.id, { kind: 'unmask' }, 2000).catch(() => undefined)
    }
  }

  return {
    /** One capture at a time, so masking and the rate limit hold across concurrent callers. */
    capture(tab: Tab & { id: number }, label: ArtifactLabel, redact?: RedactSettings): Promise<Shot> {
      const run = queue.then(() => capture(tab, label, redact))
      queue = run.catch(() => undefined)
      return run
    },
  }
}
export type Screenshotter = ReturnType<typeof createScreenshotter>
