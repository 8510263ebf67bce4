import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TaskStatus } from '#protocol'
import { EXTENSION_DIR } from './support/browser'
import { shotsDir } from './support/shots'
import { useHarness } from './support/use-harness'

/**
 * The side panel as a newcomer meets it, at the widths Chrome gives a side panel (320 to 400 px), in English and
 * Chinese: in every state nothing reaches past the right edge, and a picture of each state at 360 px is kept in
 * docs/panel/ for review (TANDEM_DOCS_SHOTS=1 refreshes them).
 */
const h = useHarness()

const WIDTHS = [320, 360, 400]
const SHOT_WIDTH = 360
const SHOTS = shotsDir('panel')
const LANGS = ['en', 'zh-CN'] as const
type Lang = (typeof LANGS)[number]

// Long words that do not break by themselves: what widened the panel before.
const LONG_GOAL =
  'Compare the three cheapest refurbished laptops on https://shop.example.com/catalogue/refurbished-laptops-with-warranty?sort=price-ascending and order the best one for Ada Lovelace'
const LONG_GOAL_ZH = '比较三台最便宜的翻新笔记本电脑，https://shop.example.com/catalogue/refurbished-laptops-with-warranty?sort=price 然后为 Ada 下单'
const LONG_QUERY = `ref=${'newsletter-spring-campaign-'.repeat(6)}end`

const pages = new Map<Lang, Page>()

beforeAll(async () => {
  for (const lang of LANGS) {
    const page = await h.ext.context.newPage()
    if (lang !== 'en') await page.addInitScript((l) => Object.defineProperty(navigator, 'language', { get: () => l }), lang)
    await page.goto(`chrome-extension://${h.ext.extensionId}/sidepanel.html`)
    pages.set(lang, page)
  }
})
afterAll(async () => {
  for (const page of pages.values()) await page.close().catch(() => undefined)
})

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const { status, body: reply } = await h.server.api(method, path, body)
  if (status !== 200) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(reply)}`)
  return reply.data as T
}

/** Makes the panel show a task, as picking it in Recent tasks does, for every panel opened from now on. */
async function show(taskId: string | null) {
  // An open panel whose task is over follows the next task the worker picks, and keeps that in the same storage:
  // set again until it holds for a second.
  for (let stable = 0; stable < 4; ) {
    const sw = await h.ext.worker()
    const now = await sw.evaluate(async (id) => {
      const held = (await chrome.storage.local.get('tandem.panel.task'))['tandem.panel.task'] ?? null
      if (held !== id) await chrome.storage.local.set({ 'tandem.panel.task': id })
      return held === id
    }, taskId)
    stable = now ? stable + 1 : 0
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Every visible element that reaches past the right edge, named so a failure says which. */
function overflowing(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement
    const width = root.clientWidth
    const name = (el: Element) => {
      const parts: string[] = []
      for (let e: Element | null = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
        const id = e.getAttribute('data-testid')
        const cls = [...e.classList].slice(0, 2).map((c) => `.${c}`).join('')
        parts.unshift(`${e.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}`)
      }
      return parts.join(' > ')
    }
    const found: string[] = []
    if (root.scrollWidth > width) found.push(`document scrollWidth ${root.scrollWidth} > clientWidth ${width}`)
    // Where a box inside something that clips it (a picture cropped in its frame) is seen to end.
    const seenRight = (el: Element) => {
      let right = el.getBoundingClientRect().right
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') right = Math.min(right, p.getBoundingClientRect().right)
      }
      return right
    }
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0 || !el.checkVisibility()) continue
      const right = box.right > width + 0.5 ? seenRight(el) : box.right
      if (right > width + 0.5) found.push(`${name(el)} ends at ${Math.round(right)} px`)
    }
    return found
  })
}

/**
 * Opens the panel afresh in each language, waits for what the state shows, and checks every width; `act` runs
 * in each language's panel first (a click the state needs).
 */
async function check(state: string, ready: (page: Page, lang: Lang) => Promise<unknown>, act?: (page: Page, lang: Lang) => Promise<unknown>) {
  await Promise.all(LANGS.map((lang) => checkIn(lang, state, ready, act)))
}

async function checkIn(lang: Lang, state: string, ready: (page: Page, lang: Lang) => Promise<unknown>, act?: (page: Page, lang: Lang) => Promise<unknown>) {
  {
    const page = pages.get(lang)!
    await page.setViewportSize({ width: SHOT_WIDTH, height: 900 })
    await page.reload()
    await page.locator('main').waitFor()
    if (act) await act(page, lang)
    await ready(page, lang)
    // Pictures arrive after the card: wait until every image in view has loaded, so they are measured too.
    await expect
      .poll(() => page.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).complete)), { timeout: 10_000 })
      .toBe(true)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 })
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      expect(await overflowing(page), `${state} in ${lang} at ${width} px`).toEqual([])
      if (width === SHOT_WIDTH) {
        // From the top, as the panel opens: a focused card may have scrolled it.
        await page.evaluate(() => window.scrollTo(0, 0))
        const height = await page.evaluate(() => document.documentElement.scrollHeight)
        const shot = await page.screenshot({ fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(height, 1600) } })
        writeFileSync(join(SHOTS, `${lang === 'en' ? 'en' : 'zh'}-${state}.png`), shot)
      }
    }
  }
}

const visible = (page: Page, testId: string, timeout = 15_000) => page.getByTestId(testId).first().waitFor({ timeout })
const waitStatus = (taskId: string, status: TaskStatus | TaskStatus[], timeoutMs = 60_000) => h.waitFor(taskId, status, timeoutMs)

describe('the extension’s icon', () => {
  it('names icons in the manifest that exist in the build, as PNGs of their sizes', () => {
    const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8'))
    const icons: Record<string, string> = manifest.icons
    expect(Object.keys(icons).sort((a, b) => +a - +b)).toEqual(['16', '32', '48', '128'])
    expect(manifest.action.default_icon).toEqual(icons)
    for (const [size, file] of Object.entries(icons)) {
      const png = readFileSync(join(EXTENSION_DIR, file))
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG')
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([+size, +size])
    }
  })
})

describe('side panel layout at 320–400 px, English and Chinese', () => {
  it('first run: the setup form, no red before the person did anything, and no jump when the status arrives', async () => {
    await h.ext.setSettings({ serverUrl: h.server.url, token: '' })
    await show(null)
    try {
      await check('first-run', async (page) => {
        await visible(page, 'settings')
        const before = await page.getByTestId('settings').boundingBox()
        await page.waitForTimeout(1500)
        expect(await page.getByTestId('settings').boundingBox()).toEqual(before)
        expect(await page.locator('[role=alert], .notice-error, [data-testid=status]').count()).toBe(0)
        const color = await page.getByTestId('link').evaluate((el) => getComputedStyle(el).color)
        const danger = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--danger').trim())
        expect(color).not.toBe(danger)
        expect(await page.getByTestId('link').getAttribute('class')).toContain('link-setup')
      })
    } finally {
      await h.ext.setSettings({ serverUrl: h.server.url, token: h.server.token })
    }
  })

  it('connected and idle, and a start refused for want of an LLM', async () => {
    await show(null)
    await check('new-task', (page) => visible(page, 'start'))
    await check(
      'no-llm',
      (page) => expect.poll(() => page.getByTestId('notice').innerText(), { timeout: 10_000 }).toMatch(/LLM/),
      async (page, lang) => {
        await visible(page, 'start')
        await page.locator('textarea[name=goal]').fill(lang === 'en' ? LONG_GOAL : LONG_GOAL_ZH)
        await page.locator('input[name=where][value=new]').check()
        await page.locator('input[name=startUrl]').fill(`${h.site.url}/arrived?${LONG_QUERY}`)
        await page.getByRole('button', { name: lang === 'en' ? 'Run' : '运行' }).click()
      },
    )
  })

  it('a running task with a long goal, canceled from the panel', async () => {
    const taskId = await h.runScript(
      [{ type: 'waitFor', text: 'a sentence this page never shows', timeoutMs: 60_000, reason: LONG_GOAL }],
      `${h.site.url}/arrived?${LONG_QUERY}`,
      LONG_GOAL,
    )
    await show(taskId)
    await waitStatus(taskId, 'RUNNING')
    await check('running', (page) => visible(page, 'step-running', 20_000))
    // The person clicks in the task's tab: the task pauses and the panel says who has the page.
    const tab = await h.ext.pageWith('/arrived?ref=')
    await tab.click('h1')
    await waitStatus(taskId, 'PAUSED', 15_000)
    await check('takeover', (page) => visible(page, 'takeover'))
    const en = pages.get('en')!
    await en.getByRole('button', { name: 'Cancel task' }).click()
    await waitStatus(taskId, 'CANCELED')
    await check('canceled', (page) => expect.poll(() => page.getByTestId('task-status').innerText(), { timeout: 10_000 }).toMatch(/Canceled by you|已由你取消/))
  })

  it('a question, and a site to allow with a long name', async () => {
    const question = `Which of these should I pick: ${LONG_QUERY}, or the other one?`
    const asking = await h.runScript([{ type: 'ask_user', question }], `${h.site.url}/arrived`, LONG_GOAL)
    await show(asking)
    await waitStatus(asking, 'WAITING_USER')
    await check('question', (page) => visible(page, 'question'))
    await api('POST', '/api/agent/cancel', { taskId: asking })

    const denied = `${h.site.deniedUrl('a-very-long-shop-name-that-asks-for-access-before-it-lets-anyone-in.test')}/shop/?${LONG_QUERY}`
    const site = await h.runScript([{ type: 'observe' }], denied, LONG_GOAL)
    await show(site)
    await waitStatus(site, 'WAITING_USER')
    await check('site-access', (page) => visible(page, 'site-access'))
    await api('POST', '/api/agent/cancel', { taskId: site })
  })

  it('a confirmation with a long page address and the write it holds, the banner for it from another task, and a rejection by Enter', async () => {
    const finished = await h.runScript([{ type: 'done', success: true, text: `Looked at it. ${LONG_QUERY}` }], `${h.site.url}/arrived`, LONG_GOAL)
    await waitStatus(finished, 'SUCCEEDED')
    await show(finished)
    await check('finished', (page) => visible(page, 'result'))

    const taskId = await h.runScript([{ type: 'click', selector: '#tidy', reason: LONG_GOAL }], `${h.site.url}/drafts?${LONG_QUERY}`, LONG_GOAL)
    const view = await waitStatus(taskId, 'WAITING_CONFIRMATION')
    expect(view.pendingConfirmation?.evidence?.requests?.length).toBeGreaterThan(0)

    // Another task of the same client waits its turn and the panel shows that one: the task waiting for the
    // person is pinned at the top, a click away.
    const next = await h.runScript([{ type: 'observe' }], `${h.site.url}/arrived`, `${LONG_GOAL} (next)`)
    await show(next)
    await check('waiting-banner', async (page) => {
      await expect.poll(() => page.getByTestId('task').innerText(), { timeout: 10_000 }).toContain('(next)')
      await expect.poll(() => page.getByTestId('waiting').locator(`[data-task="${taskId}"]`).count(), { timeout: 15_000 }).toBe(1)
      expect(await page.getByTestId('confirmation').count()).toBe(0)
    })
    const en = pages.get('en')!
    await en.getByTestId('waiting').locator(`[data-task="${taskId}"]`).click()
    await expect.poll(() => en.getByTestId('confirmation').getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
    expect(await h.ext.storage('tandem.panel.task')).toBe(taskId)
    await expect.poll(() => en.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirmation')

    await check('confirmation', async (page) => {
      await expect.poll(() => page.getByTestId('confirmation').getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
      await expect.poll(() => page.getByTestId('confirmation').locator('img').count(), { timeout: 10_000 }).toBeGreaterThan(0)
    })

    // Enter in the reason rejects with that reason.
    const reason = en.getByTestId('confirmation').locator('input[name=reason]')
    await reason.fill('Not this one')
    await reason.press('Enter')
    await waitStatus(taskId, ['FAILED', 'CANCELED'], 15_000)
    await waitStatus(next, ['SUCCEEDED', 'FAILED'], 30_000)
    const answered = (await h.audit(taskId)).find((e) => e.type === 'confirmation.answered')
    expect(answered?.data).toMatchObject({ approved: false, reason: 'Not this one' })
    await show(taskId)
    await check('rejected', (page) =>
      expect.poll(() => page.getByTestId('task-status').innerText(), { timeout: 10_000 }).toMatch(/Stopped: you said no|已停止：你拒绝了/),
    )

    // A step on an element: the card's picture is the page around it, the element outlined.
    const onElement = await h.runScript([{ type: 'click', selector: '#keep', risk: 'high', reason: 'Keep the note going' }], `${h.site.url}/drafts`, 'Keep the note')
    await waitStatus(onElement, 'WAITING_CONFIRMATION')
    await show(onElement)
    await check('card', async (page) => {
      const shot = page.getByTestId('confirmation').getByTestId('marked-shot')
      await shot.waitFor({ timeout: 10_000 })
      expect(await shot.getAttribute('data-view')).toBe('around')
      await expect.poll(() => shot.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0)
      // Cropped, not shrunk: a small element's surroundings are shown larger than the frame, in the picture's shape.
      const sizes = await shot.evaluate((frame) => {
        const img = frame.querySelector('img')!
        const box = img.getBoundingClientRect()
        return { frame: frame.getBoundingClientRect().width, width: box.width, shape: box.width / box.height, natural: img.naturalWidth / img.naturalHeight }
      })
      expect(sizes.width).toBeGreaterThan(sizes.frame * 2)
      expect(sizes.shape).toBeCloseTo(sizes.natural, 1)
      expect(await page.getByTestId('confirmation').getByTestId('what').innerText()).toMatch(/“Keep going”/)
    })
    await api('POST', '/api/agent/cancel', { taskId: onElement })

    // A write approved with "always allow": the list of allowed writes has a line to show.
    const again = await h.runScript([{ type: 'click', selector: '#tidy' }], `${h.site.url}/drafts?${LONG_QUERY}`, LONG_GOAL)
    const asked = await waitStatus(again, 'WAITING_CONFIRMATION')
    await api('POST', '/api/agent/confirm', { taskId: again, actionId: asked.pendingConfirmation!.actionId, approved: true, always: true })
    await waitStatus(again, ['SUCCEEDED', 'FAILED'])
  })

  it('several recent tasks with long goals, the server settings and the writes allowed, unfolded', async () => {
    await check(
      'recent',
      async (page) => {
        await page.getByTestId('recent').locator('li').nth(3).waitFor()
        await page.locator('.allowed li').first().waitFor({ timeout: 10_000 })
      },
      async (page) => {
        await visible(page, 'recent')
        await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)))
      },
    )
  })
})

declare const chrome: any
