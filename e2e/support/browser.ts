import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core'

export const CHROMIUM = process.env.TANDEM_CHROMIUM ?? '/usr/bin/chromium'

/** The one build of the extension, the one the README tells people to load: tests get no extra permission. */
export const EXTENSION_DIR = resolve('dist/chrome-mv3')

export interface ExtensionBrowser {
  context: BrowserContext
  extensionId: string
  /** The running service worker, started again if Chrome stopped it. */
  worker(): Promise<Worker>
  /** Writes chrome.storage.local["tandem.settings"], as the side panel does. */
  setSettings(settings: { serverUrl: string; token: string }): Promise<void>
  storage<T = unknown>(key: string): Promise<T>
  clientId(): Promise<string>
  /** The side panel, opened as an ordinary tab (headless Chrome shows no side panel). */
  openPanel(): Promise<Page>
  /** Asks the worker to pull work now, as a click in the panel does. */
  wake(): Promise<void>
  /** Stops the extension's service worker through CDP, as Chrome does when it is idle or at any moment. */
  stopWorker(): Promise<void>
  /** The tab showing a URL that contains `part`. */
  pageWith(part: string, timeoutMs?: number): Promise<Page>
  close(): Promise<void>
}

export interface LaunchOptions {
  /** More --host-resolver-rules, after the one mapping *.test to loopback (e.g. `MAP localhost ~NOTFOUND`). */
  hostRules?: string[]
}

export async function launchExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const dir = EXTENSION_DIR
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${dir} is missing: run npm run build:extension`)
  const profile = mkdtempSync(join(tmpdir(), 'tandem-e2e-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // No emulated viewport: a page's viewport is its window's, as for a person. The extension captures the tab's
    // real view (CDP Page.captureScreenshot), which an emulated viewport would not match; Chrome's "started
    // debugging" bar takes its height from that view while the extension is attached.
    viewport: null,
    args: [
      '--window-size=1200,900',
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
      '--no-sandbox',
      // Names the extension was never granted, served by the same loopback fixture server.
      `--host-resolver-rules=${['MAP *.test 127.0.0.1', ...(options.hostRules ?? [])].join(', ')}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-default-apps',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
    ],
  })
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }))
  const extensionId = new URL(first.url()).host
  const workerUrl = first.url()
  let panel: Page | null = null

  async function worker(): Promise<Worker> {
    const live = context.serviceWorkers().find((w) => w.url() === workerUrl)
    if (live) return live
    // A stopped worker starts again on any extension event: a message from an extension page is one.
    const page = await panelPage()
    const started = context.waitForEvent('serviceworker', { timeout: 15_000 })
    await page.evaluate(() => chrome.runtime.sendMessage({ kind: 'ping-to-wake' }).catch(() => undefined))
    return started
  }

  async function panelPage(): Promise<Page> {
    if (panel && !panel.isClosed()) return panel
    panel = await context.newPage()
    await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`)
    return panel
  }

  const self: ExtensionBrowser = {
    context,
    extensionId,
    worker,
    async setSettings(settings) {
      const sw = await worker()
      await sw.evaluate((value) => chrome.storage.local.set({ 'tandem.settings': value }), settings)
    },
    async storage(key) {
      const sw = await worker()
      return sw.evaluate(async (k) => (await chrome.storage.local.get(k))[k], key)
    },
    async clientId() {
      for (let i = 0; i < 50; i++) {
        const id = await self.storage<string | undefined>('tandem.clientId')
        if (id) return id
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error('the extension never made a client id')
    },
    openPanel: panelPage,
    async wake() {
      const page = await panelPage()
      await page.evaluate(() => chrome.runtime.sendMessage({ kind: 'wake', force: true }))
    },
    async stopWorker() {
      const page = await panelPage()
      const cdp = await context.newCDPSession(page)
      const stopped = new Promise<void>((resolveStopped, reject) => {
        const timer = setTimeout(() => reject(new Error('the service worker did not stop')), 10_000)
        cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: { scriptURL: string; runningStatus: string }[] }) => {
          if (event.versions.some((v) => v.scriptURL === workerUrl && v.runningStatus === 'stopped')) {
            clearTimeout(timer)
            resolveStopped()
          }
        })
      })
      await cdp.send('ServiceWorker.enable')
      await cdp.send('ServiceWorker.stopAllWorkers')
      await stopped
      await cdp.detach()
    },
    async pageWith(part, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = context.pages().find((p) => p.url().includes(part))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no tab shows ${part}; open: ${context.pages().map((p) => p.url()).join(', ')}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    async close() {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
  return self
}

declare const chrome: any
