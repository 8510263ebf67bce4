import { createReadStream, existsSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, resolve } from 'node:path'
import { build } from 'esbuild'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { Action } from '#protocol'
import { afterAll, beforeAll } from 'vitest'
import { createTrustedInput } from '../../extension/lib/executor/trusted-input'
import type { InputGesture } from '../../extension/lib/page/input'

const ENTRY = resolve('extension/lib/page/index.ts')
const FIXTURES = resolve('test/fixtures/pages')

let bundle: Promise<string> | undefined

/** A page library's entry bundled as an IIFE that sets `window.__tandemPage`; `nodePaths` for a copy kept elsewhere. */
export async function bundlePageLib(entry: string, nodePaths?: string[]): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: '__tandemPage',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
    ...(nodePaths ? { nodePaths } : {}),
  })
  return result.outputFiles[0]!.text
}

/** extension/lib/page, bundled once per test file. */
export function pageLibSource(): Promise<string> {
  bundle ??= bundlePageLib(ENTRY)
  return bundle
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] })
}

/**
 * Adds the page library to the page's top frame (it reaches same-origin frames from there). It runs in the page's
 * world here, so it also answers the listener census, as the extension's page-world script does.
 */
export async function injectPageLib(page: Page): Promise<void> {
  await page.addScriptTag({ content: await pageLibSource() })
  await page.evaluate(() => (window as any).__tandemPage.answerListenerCensus(window))
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' }

export interface FixtureServer {
  url: (name: string) => string
  /** A second origin serving the same files, for cross-origin frames. */
  otherOrigin: string
  close(): Promise<void>
}

/** Packages a fixture may link as `/node_modules/<name>/…`: the real stylesheets and libraries of the pages it imitates. */
const PACKAGES = new Set(['todomvc-app-css', 'jquery', 'react', 'react-dom', 'vue', 'preact'])

/** The file a path names: a fixture, or a file of one of PACKAGES; undefined for anything else. */
function fileFor(root: string, path: string): string | undefined {
  const pkg = /^\/node_modules\/([^/]+)\/(.+)$/.exec(path)
  const base = pkg && PACKAGES.has(pkg[1]!) ? resolve('node_modules', pkg[1]!) : root
  const file = join(base, base === root ? path.replace(/^\/+/, '') : pkg![2]!)
  return file.startsWith(base) && existsSync(file) ? file : undefined
}

/** Serves test/fixtures/pages on 127.0.0.1 (random port); `localhost` on the same port is a second origin. */
export async function serveFixtures(root = FIXTURES): Promise<FixtureServer> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    const file = fileFor(root, path)
    if (!file) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(res)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    otherOrigin: `http://localhost:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  }
}

/** Opens a fixture with the library injected. */
export async function openFixture(browser: Browser, fixtures: FixtureServer, name: string): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(fixtures.url(name))
  await injectPageLib(page)
  return page
}

type Snapshot = Omit<import('../../extension/lib/page/types').PageSnapshot, 'memory'>

/** observePage in the page; the memory stays there (as the content script keeps it) for the next `act`. */
export function observe(page: Page, opts: { maxElements?: number; textLimit?: number; redactValues?: string[]; keepPrevious?: boolean } = {}): Promise<Snapshot> {
  return page.evaluate((opts) => {
    const w = window as any
    const snapshot = w.__tandemPage.observePage(window, {
      ...opts,
      previous: opts.keepPrevious ? w.__tandemMemory : undefined,
    })
    w.__tandemMemory = snapshot.memory
    const { memory: _memory, ...rest } = snapshot
    return rest
  }, opts)
}

let seq = 0

/** An Action as the server would send it (type, target and params given; the rest filled in). */
export function action(type: Action['type'], fields: Partial<Omit<Action, 'type'>> = {}): Action {
  seq++
  return { taskId: 't1', actionId: `a${seq}`, seq, type, params: {}, risk: 'low', requiresConfirmation: false, ...fields }
}

export type ActResult = import('../../extension/lib/page/types').PageActionResult

/**
 * Gives the page trusted input as the extension does: each gesture it asks for goes through the executor's own
 * trusted-input code, over a CDP session of the page's (the extension's debugger in the tests' place). `act` with
 * `trusted: true` uses it.
 */
export async function useTrustedInput(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const input = createTrustedInput({ debugger: { send: (_tabId, method, params) => cdp.send(method as never, params as never) } })
  await page.exposeFunction('__tandemTrusted', (gesture: InputGesture) => input.dispatch(0, gesture))
}

/** runPageAction in the page against the memory of the last `observe`; `trusted`: with the input of useTrustedInput. */
export function act(page: Page, a: Action, opts: Record<string, unknown> & { trusted?: boolean } = {}): Promise<ActResult> {
  return page.evaluate(
    ({ a, opts: { trusted, ...opts } }) => {
      const w = window as any
      const input = trusted ? { input: (gesture: unknown) => w.__tandemTrusted(gesture) } : {}
      return w.__tandemPage.runPageAction(window, a, w.__tandemMemory ?? w.__tandemPage.createPageMemory(location.href), { ...opts, ...input })
    },
    { a, opts },
  )
}

/** A Chromium and the fixture server for the test file that calls it, started before its tests and closed after. */
export function useFixtureBrowser(): { readonly browser: Browser; readonly fixtures: FixtureServer } {
  let browser: Browser | undefined
  let fixtures: FixtureServer | undefined
  beforeAll(async () => {
    ;[browser, fixtures] = await Promise.all([launchChromium(), serveFixtures()])
  })
  afterAll(async () => {
    await browser?.close()
    await fixtures?.close()
  })
  return {
    get browser() {
      return browser!
    },
    get fixtures() {
      return fixtures!
    },
  }
}

/** The index of the first tree line that contains `needle`. */
export function indexIn(tree: string, needle: string): number {
  const line = tree.split('\n').find((l) => l.includes(needle))
  if (!line) throw new Error(`no ${needle} in:\n${tree}`)
  return Number(/\[(\d+)\]/.exec(line)![1])
}

/** A tree line as the model reads it: `[N]<tag attr attr="value">text`, `*` in front when it is new. */
export const LINE = /^\*?\[\d+\]<[a-z][a-z0-9-]*( [a-z-]+(=("([^"\\]|\\.)*"|[^\s"]+))?)*>.*$/

/** The first tree line holding `needle`; failing with the whole tree, so a missing element shows what was there. */
export function lineFor(tree: string, needle: string): string {
  const line = tree.split('\n').find((l) => l.includes(needle))
  if (!line) throw new Error(`no line with ${needle} in:\n${tree}`)
  return line
}
