import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { unzipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEvent } from '#protocol'
import { EVIDENCE_GOAL, stepNumbers } from '#protocol'
import { scanPixels, type Rgb } from '../test/support/pixels'
import { checkoutScript } from './fixtures/checkout-script'
import { useHarness } from './support/use-harness'

// The theme's light --danger, the colour of a high-risk badge.
const RISK_HIGH: Rgb = [0xc0, 0x39, 0x2b]

// A step that brings back no picture: the server takes one before it asks about the order.
const checkout = checkoutScript([{ type: 'waitFor', text: 'Place order' }])

const h = useHarness({ server: { env: { TANDEM_SKILLS_DIR: resolve('skills') } } })
let taskId: string
let events: AuditEvent[]
let unzipped: string
beforeAll(async () => {
  taskId = await h.runScript(checkout, `${h.site.url}/shop/`, 'buy an iPhone 15')
  for (;;) {
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED', 'CANCELED'], 60_000)
    if (view.task.status !== 'WAITING_CONFIRMATION') break
    await h.confirm(taskId, true, 'the order is right')
  }
  expect((await h.status(taskId)).task.status).toBe('SUCCEEDED')
  // The replay shows an order that really reached the shop.
  expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
  events = await h.audit(taskId)
  unzipped = mkdtempSync(join(tmpdir(), 'tandem-replay-'))
})
afterAll(() => {
  if (unzipped) rmSync(unzipped, { recursive: true, force: true })
})

const proposed = () => events.filter((e) => e.type === 'action.proposed')
const screenshotNames = () =>
  events.filter((e) => e.type === 'observation').flatMap((e) => ((e.data.artifacts as { name: string }[] | undefined) ?? []).map((a) => a.name))
const approvals = () => events.filter((e) => e.type === 'confirmation.answered')

/** Waits until the page shows `count` screenshots, each loaded and decoded (the console fetches them one by one). */
async function expectImagesLoaded(page: Page, selector: string, count: number) {
  const loaded = () =>
    page.locator(selector).evaluateAll((images) => (images as HTMLImageElement[]).filter((img) => img.complete && img.naturalWidth > 0).length)
  await expect.poll(loaded, { timeout: 15_000 }).toBe(count)
  expect(await page.locator(selector).count()).toBe(count)
}

/** The step elements show every proposed action, each with its seq. */
async function expectEveryStep(page: Page) {
  const seqs = proposed().map((e) => String((e.data.action as { seq: number }).seq))
  expect(seqs.length).toBeGreaterThanOrEqual(checkout.length)
  expect(await page.locator('li.step').evaluateAll((items) => items.map((li) => li.getAttribute('data-step')))).toEqual(seqs)
  // The numbers a person reads are the side panel's: the pictures before asking have none, the actions count 1, 2, 3…
  const kinds = proposed().map((e) => ({ type: (e.data.action as { type: string }).type, goal: e.data.evidence === true ? EVIDENCE_GOAL : undefined }))
  const numbers = stepNumbers(kinds).map((n) => (n === undefined ? null : String(n)))
  expect(await page.locator('li.step').evaluateAll((items) => items.map((li) => li.getAttribute('data-number')))).toEqual(numbers)
  expect(await page.locator('li.step .step-seq').allInnerTexts()).toEqual(numbers.filter((n) => n !== null).map((n) => `Step ${n}`))
  // A script's CSS selector is no name: the page named the button it found, as a person reads it.
  const cart = proposed().find((e) => (e.data.action as { target?: { value?: unknown } }).target?.value === 'button[data-product="iphone-15"]')!
  expect(await page.locator(`li.step[data-action="${cart.actionId}"] .step-target`).innerText()).toBe('“Add to cart”')
  expect(await page.locator('li.step .step-target').allInnerTexts()).not.toContainEqual(expect.stringContaining('data-product'))
}

/** Each confirmation sits on its step, saying who approved it, when and why; the order is one of them. */
async function expectConfirmationShown(page: Page) {
  const answered = approvals()
  expect(answered.length).toBeGreaterThan(0)
  await expect.poll(() => page.locator('[data-confirmation]').count()).toBe(answered.length)
  for (const event of answered) {
    const { by, at } = event.data as { by: string; at: string }
    const when = await page.evaluate((iso) => new Date(iso).toLocaleString('en'), at)
    const text = await page.locator(`li.step[data-action="${event.actionId}"] [data-confirmation]`).innerText()
    // Approved through the API with the person's own token here (the harness has no side panel): said as such,
    // from the principal the audit recorded, never as a raw client id.
    expect(by).toBe('api')
    expect((event.data as { source: { principal?: unknown } }).source.principal).toEqual({ kind: 'owner', via: 'api' })
    expect(text).toContain(`Approved by your API token at ${when}`)
    expect(text).toContain('the order is right')
  }
  const order = page.locator('li.step', { hasText: '“Place order”' })
  expect(await order.count()).toBe(1)
  expect(await order.locator('[data-confirmation]').count()).toBe(1)
  expect(await order.locator('.badge.risk-high').count()).toBe(1)
  expect(await order.locator('.step-type').innerText()).toBe('Click')
  // The reasons as the policy wrote them in English.
  expect(await order.locator('[data-reasons]').innerText()).toBe(`Why it is risky: ${orderReasons().join('; ')}`)
}

/** The English reasons the audit kept for the order's confirmation. */
function orderReasons(): string[] {
  // The order itself, not the picture taken for its card (aimed at the same button).
  const order = proposed().find((e) => e.data.evidence !== true && (e.data.action as { target?: { value?: unknown } }).target?.value === 'Place order')!
  const requested = events.find((e) => e.type === 'confirmation.requested' && e.actionId === order.actionId)!
  // The script names it by its text; the server judges the button it found by that text: a submit of the order form.
  expect(requested.data.reasonDetails).toEqual([{ code: 'label-high', label: 'Place order', kind: 'payment' }, { code: 'submit-form' }])
  return requested.data.reasons as string[]
}

/** The picture taken before the order's confirmation is one quiet step in words, not an action with a risk. */
async function expectEvidenceStep(page: Page) {
  // One before each card that followed a step with no picture of its own (the order's is one of them).
  const evidence = events.filter((e) => e.type === 'action.proposed' && e.data.evidence === true).map((e) => e.actionId)
  expect(evidence.length).toBeGreaterThan(0)
  const items = page.locator('li.step[data-evidence]')
  expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-action')))).toEqual(evidence)
  const order = page.locator('li.step', { hasText: '“Place order”' })
  const item = page.locator(`li.step[data-evidence][data-step="${Number(await order.getAttribute('data-step')) - 1}"]`)
  expect(await item.count()).toBe(1)
  expect(await item.locator('.step-goal').innerText()).toBe('A picture of the page before asking the person')
  expect(await items.locator('.badge').count()).toBe(0)
  await expect.poll(() => item.locator('.shot img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length), { timeout: 10_000 }).toBe(1)
  // Quiet: a dotted rule and smaller, slanted words, unlike the steps that act.
  const style = await item.evaluate((li) => {
    const goal = getComputedStyle(li.querySelector('.step-goal')!)
    return { border: getComputedStyle(li).borderLeftStyle, font: goal.fontStyle }
  })
  expect(style).toEqual({ border: 'dotted', font: 'italic' })
}

describe('the exported replay.html', () => {
  it('shows every step, its screenshots and the confirmation from file://, with no server and no network', async () => {
    const res = await fetch(`${h.server.url}/api/audit/${taskId}/export`, { headers: { authorization: `Bearer ${h.server.token}` } })
    expect(res.status).toBe(200)
    for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await res.arrayBuffer())))) {
      mkdirSync(dirname(join(unzipped, name)), { recursive: true })
      writeFileSync(join(unzipped, name), bytes)
    }
    // The server is gone: whatever the page shows comes from the unzipped files.
    await h.server.kill()

    const page = await h.ext.context.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.goto(pathToFileURL(join(unzipped, 'replay.html')).href)
    await page.locator('.replay').waitFor()

    await expectEveryStep(page)
    const names = screenshotNames()
    expect(names.length).toBeGreaterThanOrEqual(2 * 3) // before and after of each step that acts on the page, at least
    await expectImagesLoaded(page, '.shot img', names.length)
    expect(await page.locator('.shot').evaluateAll((shots) => shots.map((s) => s.getAttribute('data-artifact')))).toEqual(expect.arrayContaining(names))
    await expectConfirmationShown(page)
    await expectEvidenceStep(page)
    expect(await page.locator('[data-status]').innerText()).toBe('Done')
    expect(await page.locator('[data-chain="ok"]').innerText()).toContain(`${events.length} events`)
    // The key the manifest is signed with, as the export says it; checking it is audit:verify's.
    const { signature } = JSON.parse(readFileSync(join(unzipped, 'manifest.json'), 'utf8'))
    const signedBy = await page.locator('[data-signed-by]').innerText()
    expect(signedBy).toContain(`Signed by ${signature.key}`)
    expect(signedBy).toContain('npm run audit:verify')
    expect(requested.every((url) => url.startsWith('file://')), requested.join('\n')).toBe(true)

    // A thumbnail opens large, and Escape closes it.
    await page.locator('[data-label="before"] .shot-open').first().click()
    const large = page.locator('.lightbox img')
    await large.waitFor()
    expect(await large.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    expect((await large.boundingBox())!.width).toBeGreaterThan(400)
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('.lightbox').count()).toBe(0)

    // What a person sees: a page with content, and the high-risk step in the risk colour.
    const shot = await page.screenshot({ fullPage: true })
    writeFileSync(join(unzipped, 'replay-page.png'), shot)
    const census = await scanPixels(page, shot, { colours: { risk: RISK_HIGH } })
    expect(census.painted / census.total).toBeGreaterThan(0.02)
    expect(census.counts.risk).toBeGreaterThan(50)
    await page.close()
  })

  it('says why a step was risky in Chinese to a Chinese reader', async () => {
    const page = await h.ext.context.newPage()
    await page.addInitScript(() => Object.defineProperty(navigator, 'language', { get: () => 'zh-CN' }))
    await page.goto(pathToFileURL(join(unzipped, 'replay.html')).href)
    await page.locator('.replay').waitFor()
    const order = page.locator('li.step', { hasText: '“Place order”' })
    expect(await order.locator('[data-reasons]').innerText()).toBe('风险原因：点击“Place order”，看起来像购买或付款；提交表单，会发送已填写的内容')
    // The action in the reader's words, not the recorded type name.
    expect(await order.locator('.step-type').innerText()).toBe('点击')
    expect(orderReasons()).toEqual(['clicks "Place order", which looks like a purchase or payment', 'submits a form, which sends what was entered'])
    await page.close()
  })
})

describe('the console', () => {
  it('asks for the token, lists and filters tasks, replays one with its screenshots, and searches skills', async () => {
    await h.server.restart()
    const page = await h.ext.context.newPage()
    await page.goto(`${h.server.url}/console/`)

    // A wrong token is refused in plain words; the right one opens the task list.
    await page.locator('input[name=token]').fill('not-the-token')
    await page.getByRole('button', { name: 'Connect' }).click()
    await expect.poll(() => page.locator('[role=alert]').innerText()).toContain('refused this token')
    await page.locator('input[name=token]').fill(h.server.token)
    await page.getByRole('button', { name: 'Connect' }).click()
    const row = page.locator(`tr[data-task="${taskId}"]`)
    await row.waitFor()
    expect(await row.innerText()).toContain('buy an iPhone 15')
    // As narrow as a phone or a side panel: the list wraps instead of scrolling sideways.
    await page.setViewportSize({ width: 400, height: 800 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400)
    await page.setViewportSize({ width: 1200, height: 800 })

    // Filters: by status and by words of the goal.
    const status = page.locator('select[name=status]')
    await status.selectOption('FAILED')
    await expect.poll(() => row.count()).toBe(0)
    await status.selectOption('SUCCEEDED')
    await expect.poll(() => row.count()).toBe(1)
    await page.locator('input[name=q]').fill('no such goal')
    await expect.poll(() => row.count()).toBe(0)
    await page.locator('input[name=q]').fill('IPHONE')
    await expect.poll(() => row.count()).toBe(1)

    // The task page: every step, the screenshots fetched with the token, the confirmation, the verified chain.
    await row.getByRole('link').click()
    await page.locator('.replay').waitFor()
    await expectEveryStep(page)
    await expectImagesLoaded(page, '.shot img', screenshotNames().length)
    expect(await page.locator('.shot img').first().getAttribute('src')).toMatch(/^blob:/)
    await expectConfirmationShown(page)
    await expectEvidenceStep(page)
    await page.locator('[data-chain="ok"]').waitFor()
    expect(await page.getByRole('button', { name: 'Save as skill' }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Download audit (zip)' }).count()).toBe(1)
    const shot = await page.screenshot({ fullPage: true })
    const census = await scanPixels(page, shot, { colours: { risk: RISK_HIGH } })
    expect(census.painted / census.total).toBeGreaterThan(0.02)
    expect(census.counts.risk).toBeGreaterThan(50)

    // Skills search.
    await page.getByRole('link', { name: 'Skills' }).click()
    await page.locator('form.filters input[name=q]').fill('checkout')
    await page.getByRole('button', { name: 'Search' }).click()
    const skill = page.locator('[data-skill="checkout-with-approval"]')
    await skill.waitFor()
    expect(await skill.locator('.badge.risk-high').count()).toBe(1)
    expect(await skill.innerText()).toMatch(/Sites: /)

    // The token is kept: a reload goes straight to the list. One given in the fragment is kept and wiped from the URL.
    await page.goto(`${h.server.url}/console/`)
    await row.waitFor()
    await page.evaluate(() => localStorage.clear())
    await page.close()
    const fresh = await h.ext.context.newPage()
    await fresh.goto(`${h.server.url}/console/#token=${h.server.token}`)
    await fresh.locator(`tr[data-task="${taskId}"]`).waitFor()
    expect(fresh.url()).not.toContain(h.server.token)
    expect(await fresh.evaluate(() => localStorage.getItem('tandem.console.token'))).toBe(h.server.token)
    await fresh.close()
  })
})
