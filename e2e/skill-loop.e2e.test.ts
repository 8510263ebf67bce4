import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, AuditEvent } from '#protocol'
import { startFakeLlm, type FakeLlm } from '../test/support/fake-llm'
import { outputFolder } from '../test/support/outputs'
import { imageStats } from '../test/support/pixels'
import { shopper, shopperEnv } from './support/shopper'
import { useHarness } from './support/use-harness'

const SHOTS = join('e2e', 'output')
const SLUG = 'fixture-phone-for-ada'
const NAME = 'Buy a phone for Ada in the fixture shop'
// The theme's light --ok, the colour of the console's "saved" line.
const OK: [number, number, number] = [0x1e, 0x7f, 0x4f]

let llm: FakeLlm
let skills: string
let keepSkills = false
/** Once the skill is saved the model is out of service: any call it gets is an error. */
let llmDown = false
beforeAll(async () => {
  llm = await startFakeLlm([(r) => (llmDown ? { status: 500, message: 'the model is switched off for this test' } : undefined), shopper])
  // The skill the server saves is its output: the run's scan reads it.
  ;({ dir: skills, keep: keepSkills } = outputFolder('skill-loop'))
  mkdirSync(SHOTS, { recursive: true })
})
afterAll(async () => {
  await llm?.close()
  if (skills && !keepSkills) rmSync(skills, { recursive: true, force: true })
})
// Saved skills are the person's own: they go to their folder, not the shipped one.
const h = useHarness({ server: () => ({ env: { ...shopperEnv(llm), TANDEM_USER_SKILLS_DIR: skills } }) })

const proposedActions = (events: AuditEvent[]) => events.filter((e) => e.type === 'action.proposed' && e.data.evidence !== true).map((e) => e.data.action as Action)

/** Approves, in the panel, every confirmation the task asks for until it ends. */
async function approveInPanel(panel: Page, taskId: string): Promise<number> {
  let approved = 0
  for (;;) {
    const view = await h.waitFor(taskId, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED', 'CANCELED'], 60_000)
    if (view.task.status !== 'WAITING_CONFIRMATION') return approved
    const card = panel.getByTestId('confirmation')
    await expect.poll(() => card.getAttribute('data-action'), { timeout: 10_000 }).toBe(view.pendingConfirmation!.actionId)
    await card.getByRole('button', { name: 'Approve' }).click()
    approved++
    await expect.poll(async () => (await h.status(taskId)).pendingConfirmation?.actionId, { timeout: 10_000 }).not.toBe(view.pendingConfirmation!.actionId)
  }
}

describe('a task saved as a skill and run again from it with no LLM', () => {
  it('records an LLM task, saves it from the console, finds it, and replays it from the panel by selector and text', async () => {
    // 1. The model plans a purchase from what the extension observes, naming elements by index.
    const started = await h.server.api('POST', '/api/agent/start', { goal: 'Buy an iPhone 15 for Ada Lovelace', clientId: h.clientId, startUrl: `${h.site.url}/shop/` })
    const first = started.body.data.taskId as string
    await h.ext.wake()
    for (;;) {
      const view = await h.waitFor(first, ['WAITING_CONFIRMATION', 'SUCCEEDED', 'FAILED'], 60_000)
      if (view.task.status !== 'WAITING_CONFIRMATION') break
      await h.confirm(first, true, 'the order is right')
    }
    const recorded = await h.status(first)
    expect(recorded.task.status, JSON.stringify(recorded.steps, null, 1)).toBe('SUCCEEDED')
    expect(recorded.usage.llmCalls).toBeGreaterThanOrEqual(5)
    expect(h.site.shop.orders).toEqual([{ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' }])
    const byIndex = proposedActions(await h.audit(first)).filter((a) => a.target?.by === 'index')
    expect(byIndex.length).toBeGreaterThanOrEqual(4)

    // 2. The console saves it as a skill, named and given a slug by the person.
    const console = await h.ext.context.newPage()
    await console.goto(`${h.server.url}/console/#token=${h.server.token}`)
    await console.locator(`tr[data-task="${first}"]`).getByRole('link').click()
    await console.locator('.replay').waitFor()
    await console.getByRole('button', { name: 'Save as skill' }).click()
    const form = console.locator('form.save-form')
    expect(await form.locator('input[name=name]').inputValue()).toBe('Buy an iPhone 15 for Ada Lovelace')
    await form.locator('input[name=name]').fill(NAME)
    await form.locator('input[name=slug]').fill(SLUG)
    await form.getByRole('button', { name: 'Save skill' }).click()
    const saved = console.locator('.saved[role=status]')
    await saved.waitFor({ timeout: 10_000 })
    expect(await saved.innerText()).toContain(`“${NAME}”`)
    expect(await saved.innerText()).toContain(join(SLUG, 'SKILL.md'))
    const file = readFileSync(join(skills, SLUG, 'SKILL.md'), 'utf8')
    expect(file).toMatch(/^script:/m)
    expect(file).not.toMatch(/index:/)
    // What was typed (the search, the name) is asked for at each run, not kept; where it started is kept.
    expect(file).not.toContain('Ada Lovelace')
    expect(file).toContain('"text":"{{fullname}}"')
    expect(file).toMatch(/^start-url: ".*\/shop\/"$/m)

    // What the person sees: the replay with the saved line in the "done" colour.
    const shot = await console.screenshot({ fullPage: true })
    writeFileSync(join(SHOTS, 'console-skill-saved.png'), shot)
    const whole = await imageStats(console, shot, {})
    expect(whole.distinct).toBeGreaterThan(20)
    const line = await imageStats(console, await saved.screenshot(), { ok: OK })
    expect(line.shares.ok).toBeGreaterThan(0.02)

    // 3. The console's skills search finds it at once.
    await console.getByRole('link', { name: 'Skills' }).click()
    await console.locator('form.filters input[name=q]').fill('phone Ada')
    await console.getByRole('button', { name: 'Search' }).click()
    const found = console.locator(`[data-skill="${SLUG}"]`)
    await found.waitFor({ timeout: 10_000 })
    expect(await found.locator('.skill-name').innerText()).toBe(NAME)
    // The search result itself says the skill replays with no LLM.
    expect(await found.locator('[data-scripted]').innerText()).toBe('runs without LLM')
    expect(await found.locator('[data-scripted]').getAttribute('data-scripted')).toBe('true')
    await console.close()

    // 4. With the model switched off, the panel runs the skill again: its script, through the same approvals.
    llmDown = true
    const calls = llm.requests.length
    const panel = await h.ext.openPanel()
    await panel.reload()
    const start = panel.getByTestId('start')
    await start.waitFor()
    await start.locator('input[name=skill]').fill('fixture phone')
    const option = start.getByTestId('skill-results').getByRole('button', { name: new RegExp(NAME) })
    expect(await option.innerText()).toContain('Runs its script without an LLM')
    // The person's own skill is marked as theirs.
    expect(await option.getByTestId('skill-own').innerText()).toBe('Saved by you')
    await option.click()
    await expect.poll(() => start.getByTestId('skill').innerText()).toContain(`Following the skill “${NAME}”`)
    expect(await start.getByTestId('skill-scripted').innerText()).toBe('Runs its script without an LLM')
    const pick = await start.getByTestId('skill').screenshot()
    writeFileSync(join(SHOTS, 'panel-skill-picked.png'), pick)
    expect((await imageStats(panel, pick, {})).distinct).toBeGreaterThan(10)
    // The "no LLM" line is drawn in the "done" colour, apart from the rest of the pick.
    const mode = await imageStats(panel, await start.getByTestId('skill-scripted').screenshot(), { ok: OK })
    expect(mode.shares.ok).toBeGreaterThan(0.01)
    // The panel asks for what was typed when the skill was recorded.
    const fields = start.getByTestId('skill-params')
    expect(await fields.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).name))).toEqual(['param-q', 'param-fullname'])
    await fields.locator('input[name=param-q]').fill('iPhone 15')
    await fields.locator('input[name=param-fullname]').fill('Ada Lovelace')
    await start.locator('textarea[name=goal]').fill('Buy the same phone again')
    await start.getByLabel('In a new tab').check()
    await start.locator('input[name=startUrl]').fill(`${h.site.url}/shop/`)
    const previous = await h.ext.storage<string | null>('tandem.panel.task')
    await start.getByRole('button', { name: 'Run' }).click()
    await expect.poll(() => h.ext.storage<string | null>('tandem.panel.task'), { timeout: 10_000 }).not.toBe(previous)
    const second = (await h.ext.storage<string>('tandem.panel.task'))!
    expect((await h.status(second)).task).toMatchObject({ skill: SLUG, mode: 'script' })

    const approved = await approveInPanel(panel, second)
    const replayed = await h.status(second)
    expect(replayed.task.status, JSON.stringify({ error: replayed.task.error, steps: replayed.steps }, null, 1)).toBe('SUCCEEDED')
    expect(approved).toBeGreaterThanOrEqual(1)
    expect(h.site.shop.orders).toHaveLength(2)
    expect(h.site.shop.orders[1]).toEqual({ items: ['iphone-15'], name: 'Ada Lovelace', cardLast4: '' })
    // No model call was made, and none was needed: every action that touched an element named it by selector or text.
    expect(llm.requests.length).toBe(calls)
    expect(replayed.usage.llmCalls).toBe(0)
    const events = await h.audit(second)
    const targeted = proposedActions(events).filter((a) => a.target)
    expect(targeted.length).toBeGreaterThanOrEqual(4)
    for (const action of targeted) expect(['selector', 'text'], JSON.stringify(action)).toContain(action.target!.by)
    // The order itself was asked about and approved in the panel before it was placed.
    const order = targeted.find((a) => a.type === 'click' && /Place order/.test(JSON.stringify(a.target)))
    expect(order?.risk).toBe('high')
    expect(events.find((e) => e.type === 'confirmation.answered' && e.actionId === order!.actionId)?.data).toMatchObject({ approved: true })
    await expect.poll(() => panel.getByTestId('task-status').innerText(), { timeout: 10_000 }).toBe('Done')

    // 5. Saved again from the panel under the same name: the skill of that name is named, and replaced only on request.
    // Save and Export are one row of actions under the finished task.
    const actions = panel.getByTestId('controls')
    const [saveBox, exportBox] = await Promise.all([
      actions.getByTestId('save-skill-open').boundingBox(),
      actions.getByRole('button', { name: 'Export audit (zip)' }).boundingBox(),
    ])
    expect(saveBox!.y).toBe(exportBox!.y)
    expect(saveBox!.x).toBeLessThan(exportBox!.x)
    await panel.getByTestId('save-skill-open').click()
    const again = panel.getByTestId('save-skill')
    expect(await again.locator('input[name=skillName]').inputValue()).toBe('Buy the same phone again')
    await again.locator('input[name=skillName]').fill(NAME)
    await again.getByRole('button', { name: 'Save skill' }).click()
    await expect.poll(() => again.getByTestId('skill-conflict').innerText(), { timeout: 10_000 }).toContain(`You have a skill called “${NAME}” already`)
    expect(readFileSync(join(skills, SLUG, 'SKILL.md'), 'utf8')).not.toContain('Buy the same phone again')
    await again.getByRole('button', { name: 'Replace it' }).click()
    const savedLine = panel.getByTestId('skill-saved')
    await savedLine.waitFor({ timeout: 10_000 })
    expect(await savedLine.getAttribute('data-slug')).toBe(SLUG)
    expect(await savedLine.innerText()).toBe(`Saved as the skill “${NAME}”. It runs its script without an LLM.`)
    expect(readFileSync(join(skills, SLUG, 'SKILL.md'), 'utf8')).toContain('Buy the same phone again')
    expect(llm.requests.length).toBe(calls)
  })
})
