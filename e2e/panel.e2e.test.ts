import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isEvidenceStep } from '#protocol'
import { startFakeLlm, type FakeLlm } from '../test/support/fake-llm'
import { imageStats } from '../test/support/pixels'
import { createShopper, shopperEnv } from './support/shopper'
import { useHarness } from './support/use-harness'

// Slow on purpose, as a real model is: the panel shows that the planner is thinking meanwhile. Its scroll before
// the order brings back no picture, so the server takes one before it asks about the order.
const shopper = createShopper({ firstAnswerMs: 2500, scrollBeforeOrder: true })

const SKILL = `---
name: Fixture shop checkout
description: Buy one item in the fixture shop and place the order after the person approves.
sites: [127.0.0.1]
tags: [fixture, checkout]
risk: high
---
## Steps
1. Search for the item, add it to the cart, check out, place the order.
`

const SHOTS = join('e2e', 'output')
const RED: [number, number, number] = [192, 57, 43]

let llm: FakeLlm
let skills: string
beforeAll(async () => {
  llm = await startFakeLlm(shopper)
  skills = mkdtempSync(join(tmpdir(), 'tandem-panel-skills-'))
  mkdirSync(join(skills, 'fixture-shop-checkout'))
  writeFileSync(join(skills, 'fixture-shop-checkout', 'SKILL.md'), SKILL)
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => llm?.close())
const h = useHarness({ server: () => ({ env: { ...shopperEnv(llm), TANDEM_SKILLS_DIR: skills } }) })

/** The task the panel follows, as it keeps it in storage. */
async function followedTask(): Promise<string> {
  let id: string | null = null
  await expect.poll(async () => (id = await h.ext.storage<string | null>('tandem.panel.task')), { timeout: 10_000 }).toBeTruthy()
  return id!
}

async function openPanel(): Promise<Page> {
  const panel = await h.ext.openPanel()
  await panel.reload()
  await panel.getByTestId('start').waitFor()
  return panel
}

/** Waits until the panel shows the confirmation for the server's pending action. */
async function cardFor(panel: Page, taskId: string) {
  const view = await h.waitFor(taskId, 'WAITING_CONFIRMATION', 60_000)
  const card = panel.getByTestId('confirmation')
  await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
  return { card, view }
}

describe('side panel, driven as a person would', () => {
  it('runs a goal in the current tab, shows the high-risk card, approves it by keyboard only on purpose, and exports the audit', async () => {
    const shop = await h.ext.context.newPage()
    await shop.goto(`${h.site.url}/shop/`)
    await shop.bringToFront()
    const tabsBefore = h.ext.context.pages().length
    const panel = await openPanel()
    const start = panel.getByTestId('start')
    await expect.poll(() => start.getByTestId('current-tab').innerText(), { timeout: 10_000 }).toContain('Shop')

    await start.locator('textarea[name=goal]').fill('Buy an iPhone 15 for Ada Lovelace')
    await start.getByRole('button', { name: 'Run' }).click()
    const taskId = await followedTask()
    await expect.poll(() => panel.getByTestId('task').innerText(), { timeout: 10_000 }).toContain('Buy an iPhone 15 for Ada Lovelace')
    // The model takes its time over the first page: the panel says it is thinking.
    await panel.getByTestId('thinking').waitFor({ timeout: 15_000 })
    expect(await panel.getByTestId('thinking').innerText()).toMatch(/^Thinking/)
    // While the task runs the new-task card is one line, its title.
    await expect.poll(() => start.locator('textarea[name=goal]').isVisible()).toBe(false)
    expect(await start.innerText()).toBe('New task')

    let first = true
    let orderCard = false
    for (;;) {
      const now = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
      if (now.task.status !== 'WAITING_CONFIRMATION') break
      const { card, view } = await cardFor(panel, taskId)
      expect(h.site.shop.orders).toEqual([])
      expect(await card.getByTestId('risk').innerText()).toBe(`${view.pendingConfirmation!.risk} risk`)
      for (const reason of view.pendingConfirmation!.reasons) expect(await card.innerText()).toContain(reason)
      // The page it happens on, its domain, and the page as it looked just before asking.
      expect(await card.getByTestId('domain').innerText()).toBe(new URL(h.site.url).origin)
      await expect
        .poll(() => card.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length), { timeout: 10_000 })
        .toBe(1)
      expect(await card.locator('img').getAttribute('src')).toMatch(/^blob:chrome-extension:/)
      if (view.pendingConfirmation!.evidence?.title === 'Checkout') {
        orderCard = true
        // The click ran; what it sends is the question: the order's post, held, named by the button that sent it.
        expect(view.pendingConfirmation!.action.type).toBe('release')
        expect(await card.getByTestId('target').innerText()).toBe('“Place order”')
        expect(await card.getByTestId('what').innerText()).toBe(`“Place order” tried to send POST ${h.site.url}/shop/order`)
        // That picture is the click's own, taken with the request still held.
        const click = view.steps.at(-1)!
        expect(click).toMatchObject({ type: 'click', outcome: 'done' })
        expect(view.pendingConfirmation!.evidence?.screenshot?.name).toBe(click.artifacts?.find((a) => a.label === 'after')?.name)
      }
      // Focus lands on the card, not on Approve: Enter there does nothing.
      await expect.poll(() => panel.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('confirmation')
      await panel.keyboard.press('Enter')
      if (first) {
        first = false
        expect(await card.innerText()).toContain('A goes to Approve')
        const shot = await panel.screenshot({ fullPage: true })
        writeFileSync(join(SHOTS, 'panel-confirmation.png'), shot)
        const stats = await imageStats(panel, shot, { red: RED })
        expect(stats.distinct).toBeGreaterThan(20)
        const cardStats = await imageStats(panel, await card.screenshot(), { red: RED })
        if (view.pendingConfirmation!.risk === 'high') expect(cardStats.shares.red).toBeGreaterThan(0.01)
        // At the side panel's usual width nothing scrolls sideways and each label sits above its value.
        await panel.setViewportSize({ width: 360, height: 800 })
        expect(await panel.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
        const [label, value] = await Promise.all([card.locator('dt').first().boundingBox(), card.getByTestId('what').boundingBox()])
        expect(label!.y + label!.height).toBeLessThanOrEqual(value!.y)
        await panel.setViewportSize({ width: 1200, height: 800 })
      }
      expect((await h.status(taskId)).pendingConfirmation?.actionId).toBe(view.pendingConfirmation!.actionId)
      await panel.keyboard.press('a')
      await expect.poll(() => panel.evaluate(() => document.activeElement?.textContent)).toBe('Approve')
      await panel.keyboard.press('Enter')
      await expect
        .poll(async () => (await h.status(taskId)).pendingConfirmation?.actionId, { timeout: 10_000 })
        .not.toBe(view.pendingConfirmation!.actionId)
    }
    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(done.task.status, JSON.stringify(done.steps, null, 1)).toBe('SUCCEEDED')
    expect(first).toBe(false)
    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    // The shopper's scroll before the order really moved the checkout page, as the page itself reported.
    expect(h.site.hits).toContain('checkout-scrolled')
    // The task ran in the tab the person was looking at: no tab was opened for it.
    expect(h.ext.context.pages().length).toBe(tabsBefore)
    expect(shop.url()).toContain('/shop/')

    await expect.poll(() => panel.getByTestId('result').innerText(), { timeout: 10_000 }).toContain('The order is confirmed.')
    expect(await panel.getByTestId('task-status').innerText()).toBe('Done')
    await expect.poll(() => panel.getByTestId('step').count()).toBe(done.steps.length)
    expect(orderCard).toBe(true)
    const timeline = await panel.getByTestId('timeline').innerText()
    expect(timeline).toMatch(/Look at the page[\s\S]*Type text[\s\S]*Click[\s\S]*high risk/)
    // Each step says what it was for, in the model's words, in the order it planned them.
    expect(timeline).toMatch(/Search for the phone[\s\S]*Put it in the cart[\s\S]*Go to checkout[\s\S]*Fill in the name[\s\S]*Place the order/)
    // One numbering: the rows count the actions 1, 2, 3… as the server numbers them; the picture before asking has none.
    const numbers = done.steps.flatMap((step) => (step.number === undefined ? [] : [String(step.number)]))
    expect(numbers).toEqual(numbers.map((_, i) => String(i + 1)))
    expect(await panel.locator('[data-testid=step] .step-seq').allInnerTexts()).toEqual(numbers)
    expect(await panel.locator('[data-testid=step][data-evidence] .step-seq').count()).toBe(0)
    // What was typed is on its step.
    expect(timeline).toContain('typed “Ada Lovelace”')
    // A card about what a step sent shows that step's own picture: no picture was taken just for asking.
    const evidence = panel.locator('[data-testid=step][data-evidence]')
    expect(await evidence.count()).toBe(done.steps.filter(isEvidenceStep).length)
    expect(done.steps.filter((s) => s.type === 'release').length).toBeGreaterThan(0)
    // The thumbnails are the audit's screenshots, fetched with the token into object URLs.
    await expect
      .poll(() => panel.locator('.timeline img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length), { timeout: 10_000 })
      .toBeGreaterThan(0)
    expect(await panel.locator('.timeline img').first().getAttribute('src')).toMatch(/^blob:chrome-extension:/)
    const finished = await panel.screenshot({ fullPage: true })
    writeFileSync(join(SHOTS, 'panel-finished.png'), finished)
    expect((await imageStats(panel, finished, {})).distinct).toBeGreaterThan(20)

    const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByRole('button', { name: 'Export audit (zip)' }).click()])
    expect(download.suggestedFilename()).toBe(`tandem-audit-${taskId}.zip`)
    const zip = readFileSync((await download.path())!)
    const files = unzipSync(new Uint8Array(zip))
    expect(Object.keys(files)).toContain('events.jsonl')
    const events = new TextDecoder().decode(files['events.jsonl']).trim().split('\n').map((l) => JSON.parse(l))
    expect(events.find((e) => e.type === 'confirmation.answered')?.data).toMatchObject({ approved: true })
    await expect.poll(() => panel.getByTestId('notice').innerText()).toBe('Audit exported.')
  })

  it('finds a skill by search, starts in a new tab with it, and rejects the order with a reason', async () => {
    const panel = await openPanel()
    const start = panel.getByTestId('start')
    await start.locator('input[name=skill]').fill('fixture checkout')
    const option = start.getByTestId('skill-results').getByRole('button', { name: /Fixture shop checkout/ })
    await option.click()
    await expect.poll(() => start.getByTestId('skill').innerText()).toContain('Following the skill “Fixture shop checkout”')
    await start.locator('textarea[name=goal]').fill('Buy an iPhone 15 for Ada Lovelace, following the skill')
    await start.getByLabel('In a new tab').check()
    await start.locator('input[name=startUrl]').fill(`${h.site.url}/shop/`)
    const previous = await h.ext.storage<string>('tandem.panel.task')
    await start.getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => h.ext.storage<string>('tandem.panel.task'), { timeout: 10_000 }).not.toBe(previous)
    const taskId = await followedTask()
    expect((await h.status(taskId)).task).toMatchObject({ skill: 'fixture-shop-checkout', startUrl: `${h.site.url}/shop/` })

    for (;;) {
      const { card, view } = await cardFor(panel, taskId)
      // The order's card is the one on the checkout page; what comes before it (the cart) is approved.
      if (view.pendingConfirmation!.evidence?.title !== 'Checkout') {
        await card.getByRole('button', { name: 'Approve' }).click()
        await expect.poll(async () => (await h.status(taskId)).pendingConfirmation?.actionId, { timeout: 10_000 }).not.toBe(view.pendingConfirmation!.actionId)
        continue
      }
      await card.locator('input[name=reason]').fill('Not this card today')
      await card.getByRole('button', { name: 'Reject' }).click()
      break
    }
    await expect
      .poll(async () => (await h.audit(taskId)).find((e) => e.type === 'confirmation.answered' && e.data.approved === false)?.data, { timeout: 10_000 })
      .toMatchObject({ approved: false, reason: 'Not this card today' })
    expect(h.site.shop.orders).toHaveLength(1) // only the first test's order
    // Told no, the model asks what to do instead; the person cancels from there.
    await h.waitFor(taskId, 'WAITING_USER', 60_000)
    await panel.getByTestId('controls').getByRole('button', { name: 'Cancel task' }).click()
    await h.waitFor(taskId, 'CANCELED')
    // The person's own cancel is named as theirs, not as a failure.
    await expect.poll(() => panel.getByTestId('task-status').innerText(), { timeout: 10_000 }).toBe('Canceled by you')
    // The reject is the person's choice, with their reason, not a red failure.
    const rejected = panel.locator('[data-testid=step].outcome-rejected')
    expect(await rejected.locator('.step-note').innerText()).toBe('Your reason: Not this card today')
    expect(await panel.getByTestId('result').innerText()).toContain('You stopped this task')
  })

  it('answers a question in place, and pauses and resumes the task', async () => {
    const panel = await openPanel()
    const goal = 'Ask who the order is for'
    const taskId = await h.runScript(
      [
        { type: 'ask_user', question: 'Whose name goes on the order?' },
        { type: 'done', success: true, text: 'Noted.' },
      ],
      `${h.site.url}/shop/`,
      goal,
    )
    await h.waitFor(taskId, 'WAITING_USER')
    // Switch the panel to the new task from the list of recent ones.
    const recent = panel.getByTestId('recent')
    await recent.locator('summary').click()
    await recent.getByRole('button', { name: new RegExp(goal) }).click()
    const question = panel.getByTestId('question')
    await expect.poll(() => question.innerText(), { timeout: 10_000 }).toContain('Whose name goes on the order?')

    await panel.getByTestId('controls').getByRole('button', { name: 'Pause (take over)' }).click()
    await h.waitFor(taskId, 'PAUSED')
    await expect.poll(() => panel.getByTestId('task-status').innerText(), { timeout: 10_000 }).toBe('Paused: you have control')
    await panel.getByTestId('controls').getByRole('button', { name: 'Resume' }).click()
    await h.waitFor(taskId, 'WAITING_USER')

    await question.locator('input[name=answer]').fill('Ada Lovelace')
    await question.getByRole('button', { name: 'Answer' }).click()
    const done = await h.waitFor(taskId, ['SUCCEEDED', 'FAILED'])
    expect(done.task.status).toBe('SUCCEEDED')
    const events = await h.audit(taskId)
    expect(events.find((e) => e.type === 'user.answered')?.data).toMatchObject({ answer: 'Ada Lovelace' })
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['task.paused', 'task.resumed']))
    await expect.poll(() => panel.getByTestId('result').innerText(), { timeout: 10_000 }).toContain('Noted.')
  })
})
