import type { ArtifactLabel, ArtifactUpload, ObservationError, RedactSettings } from '#protocol'
import { ContentError, type ContentChannel } from './content-channel'
import { DebuggerError, type TabDebugger } from './debugger'
import type { Tab, TabsApi } from './task-tab'

export interface ScreenshotDeps {
  tabs: Pick<TabsApi, 'captureVisibleTab' | 'get'>
  content: Pick<ContentChannel, 'ask' | 'ensure'>
  debugger: Pick<TabDebugger, 'send'> & Partial<Pick<TabDebugger, 'attachment'>>
  /** Chrome allows two captureVisibleTab calls a second; stay under it. */
  minIntervalMs?: number
  /** How long the browser may take to capture the tab through the debugger. */
  captureTimeoutMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export type Shot = { artifact: ArtifactUpload } | { error: ObservationError }

const unavailable = (message: string): Shot => ({ error: { code: 'SCREENSHOT_UNAVAILABLE', message } })

const BRING_TO_FRONT = 'bring the task’s tab to the front and click Tandem’s toolbar icon there'

/** Why the debugger could not capture the tab, and what the person can do about it. */
function whyNot(error: DebuggerError): string {
  switch (error.reason) {
    case 'declined':
      return `Chrome’s “Tandem started debugging this browser” bar was canceled, so Tandem can capture the task’s tab only while it is the visible tab: ${BRING_TO_FRONT}, or start the task again.`
    case 'busy':
      return `Another debugger (DevTools or another extension) is attached to the task’s tab, so Tandem can capture it only while it is the visible tab: close the other debugger, or ${BRING_TO_FRONT}.`
    case 'timeout':
      return `The browser did not capture the task’s tab in time (${error.message}); the next step tries again.`
    case 'failed':
      return `The browser would not let Tandem capture the task’s tab (${error.message}).`
  }
}

/**
 * Screenshots of the task tab, visible or not, with password and card fields and card numbers masked (and emails
 * and phone numbers when the server hides them). They are taken through the debugger (CDP Page.captureScreenshot),
 * which needs no host permission and captures a tab in the background; when it cannot be used, the tab is
 * captured as the visible one if it is (which works once the person clicked the toolbar icon on it).
 */
export function createScreenshotter(deps: ScreenshotDeps) {
  const minInterval = deps.minIntervalMs ?? 550
  const captureTimeoutMs = deps.captureTimeoutMs ?? 10_000
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  let last = Number.NEGATIVE_INFINITY
  let queue: Promise<unknown> = Promise.resolve()
  /** The debugger attachment each tab's screencast runs in (see keepRendering). */
  const casting = new Map<number, number>()

  async function viaDebugger(tabId: number): Promise<string> {
    await keepRendering(tabId)
    const params = { format: 'jpeg', quality: 70, captureBeyondViewport: false }
    const { data } = await deps.debugger.send<{ data: string }>(tabId, 'Page.captureScreenshot', params, captureTimeoutMs)
    return `data:image/jpeg;base64,${data}`
  }

  /**
   * Chrome renders a background tab for a capture only slowly: in headed Chromium each capture of a hidden tab took
   * longer (1.5 s, then 12 s, then past 20 s). A screencast held open on the tab (never acknowledged, so at most one
   * tiny frame is sent) keeps its captures at about 20 ms; the page itself stays hidden. It lasts as long as the
   * debugger's attachment, so it is started once per attachment ("already active" afterwards).
   */
  async function keepRendering(tabId: number): Promise<void> {
    const attachment = deps.debugger.attachment?.(tabId)
    if (attachment !== undefined && casting.get(tabId) === attachment) return
    const params = { format: 'jpeg', quality: 1, maxWidth: 16, maxHeight: 16 }
    try {
      await deps.debugger.send(tabId, 'Page.startScreencast', params)
    } catch (error) {
      if (!(error instanceof DebuggerError && /already active/i.test(error.message))) throw error
    }
    const now = deps.debugger.attachment?.(tabId)
    if (now !== undefined) casting.set(tabId, now)
  }

  async function visibleTab(windowId: number): Promise<string> {
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

  /** The image as a data URL, or why there is none; `painted` makes sure the masked page is on screen. */
  async function grab(tabId: number, painted: () => Promise<boolean>): Promise<string | Shot> {
    let refusal: DebuggerError
    try {
      return await viaDebugger(tabId)
    } catch (error) {
      if (!(error instanceof DebuggerError)) throw error
      refusal = error
    }
    // captureVisibleTab shows whatever the window shows: only the task's own tab, in front right now, may be taken.
    const current = await deps.tabs.get(tabId).catch(() => null)
    if (!current?.active) return unavailable(whyNot(refusal))
    if (!(await painted())) return unavailable('Sensitive fields could not be masked, so no screenshot was taken.')
    try {
      return await visibleTab(current.windowId)
    } catch (error) {
      return unavailable(`${whyNot(refusal)} Capturing it as the visible tab failed too: ${(error as Error)?.message ?? error}`)
    }
  }

  async function capture(tab: Tab & { id: number }, label: ArtifactLabel, redact?: RedactSettings): Promise<Shot> {
    const ask = (paint: boolean) =>
      deps.content.ask(tab.id, { kind: 'mask', restoreAfterMs: 3000, ...(redact ? { redact } : {}), ...(paint ? {} : { paint }) }, 2000).then(({ masked }) => masked)
    const mask = (paint: boolean) => ask(paint).catch(() => false)
    // The debugger's capture renders the page as it is when asked, masked fields included: no frame is waited for.
    // Only the fallback, which takes what the screen shows, masks again and waits until that is painted. A page that
    // does not run Tandem yet (the page was just read, so it mostly does) gets it first.
    const masked = await ask(false).catch(async (error: unknown) => {
      if (!(error instanceof ContentError && error.reason === 'gone')) return false
      return deps.content.ensure(tab.id).then(() => mask(false), () => false)
    })
    if (!masked) return unavailable('Sensitive fields could not be masked, so no screenshot was taken.')
    try {
      const image = await grab(tab.id, () => mask(true))
      if (typeof image !== 'string') return image
      const match = /^data:(image\/(?:jpeg|png|webp));base64,(.+)$/.exec(image)
      if (!match) return unavailable('The browser returned no image.')
      return { artifact: { label, contentType: match[1] as ArtifactUpload['contentType'], data: match[2] } }
    } catch (error) {
      return unavailable(`The browser refused the screenshot: ${(error as Error)?.message ?? error}`)
    } finally {
      // Not waited for: the page's next request (a reading, an action, the next mask) comes after it in the same
      // channel, and the fields come back by themselves if it is lost.
      void deps.content.ask(tab.id, { kind: 'unmask' }, 2000).catch(() => undefined)
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
