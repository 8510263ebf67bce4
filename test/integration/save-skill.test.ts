import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, ObservationInput, SaveSkillData, ScriptStep, SkillSearchResult } from '#protocol'
import { parseSkill } from '../../server/lib/skills/parse-skill'
import { agent, ok, PNG } from '../support/agent'
import { CANARIES } from '../support/canaries'
import { outputFolder } from '../support/outputs'
import { startServer, type TestServer } from '../support/server'

const PASSWORD = CANARIES.password
const VAULT = CANARIES.secret

const PAGE: Partial<ObservationInput> = {
  url: 'https://shop.test/cart',
  title: 'Shop',
  elementTree:
    '[0]<a href="/">Home</a>\n[1]<input type=text name=q placeholder="Search">\n[2]<button id=place-order>Place order</button>\n[3]<a href="/p/1">iPhone 15</a>\n[4]<input type=password name=pw>',
  elements: [
    { index: 0, tag: 'a', text: 'Home', attributes: { href: '/' }, fingerprint: 'f0' },
    { index: 1, tag: 'input', attributes: { type: 'text', name: 'q', placeholder: 'Search' }, fingerprint: 'f1' },
    { index: 2, tag: 'button', text: 'Place order', attributes: { id: 'place-order' }, fingerprint: 'f2' },
    { index: 3, tag: 'a', text: 'iPhone 15', attributes: { href: '/p/1' }, fingerprint: 'f3' },
    { index: 4, tag: 'input', attributes: { type: 'password', name: 'pw' }, fingerprint: 'f4' },
  ],
}

/** A purchase whose steps name elements by index, as a model would, with a password and a high-risk order. */
const BY_INDEX: ScriptStep[] = [
  { type: 'navigate', url: 'https://shop.test/', reason: 'open the shop' },
  { type: 'type', index: 1, text: 'iPhone 15', reason: 'search for the phone' },
  { type: 'click', index: 3 },
  { type: 'observe' },
  { type: 'type', index: 4, text: PASSWORD, reason: 'sign in' },
  { type: 'click', index: 2, reason: 'place the order' },
]

let server: TestServer
let skillsDir: string
let folder: ReturnType<typeof outputFolder>
let a: ReturnType<typeof agent>
beforeAll(async () => {
  // The skills the server writes are its output: the run's scan reads them.
  folder = outputFolder('saved-skills')
  skillsDir = join(folder.dir, 'skills')
  server = await startServer({ env: { TANDEM_USER_SKILLS_DIR: skillsDir, TANDEM_SECRET_SHOP_PW: VAULT } })
  a = agent(server)
})
afterAll(async () => {
  await server.close()
  if (!folder.keep) rmSync(folder.dir, { recursive: true, force: true })
})

const save = (body: Record<string, unknown>) => server.api('POST', '/api/skills', body)

/** Acts as the extension and the person: runs every action on PAGE and approves every confirmation. */
async function runToEnd(taskId: string) {
  const proposed: Action[] = []
  const confirmed: Action[] = []
  for (let i = 0; i < 40; i++) {
    const view = await a.status(taskId)
    if (['SUCCEEDED', 'FAILED', 'CANCELED'].includes(view.task.status)) return { view, proposed, confirmed }
    if (view.pendingConfirmation) {
      confirmed.push(view.pendingConfirmation.action)
      await a.confirm(taskId, view.pendingConfirmation.actionId, true)
      continue
    }
    const { action } = await a.next(taskId, 2000)
    if (!action) continue
    if (!proposed.some((p) => p.actionId === action.actionId)) proposed.push(action)
    await a.report(action, action.type === 'screenshot' ? { ...PAGE, artifacts: [{ label: 'screenshot', contentType: 'image/png', data: PNG }] } : PAGE)
  }
  throw new Error(`task ${taskId} did not finish`)
}

describe('save as skill, search it, replay it with no LLM', () => {
  let taskId: string
  let saved: SaveSkillData

  it('refuses a task that has not finished', async () => {
    ;({ taskId } = await a.start({ goal: 'Buy an iPhone 15 at the shop', script: BY_INDEX }))
    const res = await save({ taskId })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('CONFLICT')
    const original = await runToEnd(taskId)
    expect(original.view.task.status).toBe('SUCCEEDED')
    expect(original.confirmed.map((c) => c.type)).toEqual(['type', 'click'])
  })

  it('writes SKILL.md with sites, risk, risky steps and a script by selector or text, never an index or a password', async () => {
    saved = await ok<SaveSkillData>(save({ taskId }))
    expect(saved.skill).toMatchObject({
      // What was typed (the search) is a parameter now, in the name too.
      slug: 'buy-an-q-at-the-shop',
      name: 'Buy an {{q}} at the shop',
      parameters: [{ name: 'q', label: 'Search' }],
      own: true,
      sites: ['shop.test'],
      risk: 'high',
      scripted: true,
      tags: ['recorded'],
    })
    expect(saved.skill['allowed-actions'].sort()).toEqual(['click', 'navigate', 'type'])
    expect(saved.skill['risky-steps']).toEqual(['Type “{{secret:SHOP_PW}}” into “pw” on shop.test', 'Click “Place order” on shop.test'])
    expect(saved.file).toBe(join(skillsDir, 'buy-an-q-at-the-shop', 'SKILL.md'))

    const text = readFileSync(saved.file, 'utf8')
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain('••••')
    expect(text).not.toMatch(/"index"/)
    const skill = parseSkill(saved.skill.slug, text)
    expect(skill.script).toEqual([
      { type: 'navigate', url: 'https://shop.test/', reason: 'open the shop' },
      { type: 'type', selector: 'input[name="q"]', text: '{{q}}', reason: 'search for the phone' },
      { type: 'click', text: 'iPhone 15' },
      { type: 'type', selector: 'input[name="pw"]', text: '{{secret:SHOP_PW}}', reason: 'sign in', risk: 'high' },
      { type: 'click', selector: '#place-order', reason: 'place the order', risk: 'high' },
    ])
    // The SOP in words: goal, sites, numbered steps, which need approval, which secret to set.
    expect(skill.body).toContain('## Goal\nBuy an {{q}} at the shop')
    expect(skill.body).toContain('- shop.test')
    expect(skill.body).toContain('3. Click “iPhone 15” on shop.test')
    expect(skill.body).toContain('5. Click “Place order” on shop.test — **needs your approval** — place the order')
    expect(skill.body).toMatch(/Steps 4, 5 are high-risk/)
    expect(skill.body).toContain('TANDEM_SECRET_SHOP_PW')
  })

  it('is found by search at once', async () => {
    const found = await ok<SkillSearchResult[]>(server.api('GET', '/api/skills/search?q=iphone'))
    expect(found[0]).toMatchObject({ slug: saved.skill.slug, risk: 'high', scripted: true })
    const onSite = await ok<SkillSearchResult[]>(server.api('GET', '/api/skills/search?site=shop.test'))
    expect(onSite.map((s) => s.slug)).toContain(saved.skill.slug)
  })

  it('replays by skill with no LLM: the same actions by selector or text, through the same confirmations', async () => {
    const { taskId: replay } = await ok<{ taskId: string }>(
      server.api('POST', '/api/agent/start', { goal: 'buy it again', skill: saved.skill.slug, clientId: 'client_test_1', params: { q: 'iPhone 15' } }),
    )
    const run = await runToEnd(replay)
    expect(run.view.task).toMatchObject({ status: 'SUCCEEDED', mode: 'script', skill: saved.skill.slug, skillName: 'Buy an {{q}} at the shop' })
    expect(run.view.usage.llmCalls).toBe(0)
    const work = run.proposed.filter((p) => p.type !== 'screenshot')
    expect(work.map((p) => [p.type, p.target])).toEqual([
      ['navigate', undefined],
      ['type', { by: 'selector', value: 'input[name="q"]' }],
      ['click', { by: 'text', value: 'iPhone 15' }],
      ['type', { by: 'selector', value: 'input[name="pw"]' }],
      ['click', { by: 'selector', value: '#place-order' }],
    ])
    expect(run.confirmed.map((c) => [c.type, c.risk, c.target?.value])).toEqual([
      ['type', 'high', 'input[name="pw"]'],
      ['click', 'high', '#place-order'],
    ])
    // The secret is filled in only when the action is handed to the extension.
    expect(work[3].params).toMatchObject({ text: VAULT, sensitive: true })
    expect(JSON.stringify(run.view)).not.toContain(VAULT)
  })

  it('answers CONFLICT for a slug that exists, unless overwrite is set', async () => {
    const again = await save({ taskId })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('CONFLICT')
    const replaced = await ok<SaveSkillData>(save({ taskId, overwrite: true, description: 'The usual phone order.' }))
    expect(replaced.skill.description).toBe('The usual phone order.')
    const listed = await ok<{ slug: string; description: string }[]>(server.api('GET', '/api/skills'))
    expect(listed.filter((s) => s.slug === saved.skill.slug)).toEqual([expect.objectContaining({ description: 'The usual phone order.' })])
  })

  it('takes a slug and a name when given, and keeps a Chinese name as it was written, listed and found by it', async () => {
    const named = await ok<SaveSkillData>(save({ taskId, slug: 'phone-order', name: '买手机' }))
    expect(named.skill).toMatchObject({ slug: 'phone-order', name: '买手机' })
    const { taskId: zh } = await a.start({ goal: '在商店里买一部手机', script: [{ type: 'navigate', url: 'https://shop.test/' }] })
    await runToEnd(zh)
    const byName = await ok<SaveSkillData>(save({ taskId: zh }))
    expect(byName.skill.slug).toMatch(/^skill-[0-9a-f]{6}$/)
    expect(byName.skill.name).toBe('在商店里买一部手机')
    const listed = await ok<{ slug: string; name: string }[]>(server.api('GET', '/api/skills'))
    expect(listed.find((s) => s.slug === byName.skill.slug)?.name).toBe('在商店里买一部手机')
    const found = await ok<{ slug: string; name: string }[]>(server.api('GET', `/api/skills/search?q=${encodeURIComponent('买手机')}`))
    expect(found.find((s) => s.slug === byName.skill.slug)?.name).toBe('在商店里买一部手机')
    const one = await ok<{ name: string }>(server.api('GET', `/api/skills/${byName.skill.slug}`))
    expect(one.name).toBe('在商店里买一部手机')
    // The same name again is not written over the first: the person is asked, and may keep both.
    const again = await save({ taskId: zh })
    expect(again.status).toBe(409)
    expect(again.body.error.details).toMatchObject({ slug: byName.skill.slug, name: '在商店里买一部手机' })
    const both = await ok<SaveSkillData>(save({ taskId: zh, keepBoth: true }))
    expect(both.skill).toMatchObject({ slug: `${byName.skill.slug}-2`, name: '在商店里买一部手机' })
  })

  it('refuses a finished task with no step to replay, saying so', async () => {
    const { taskId: opened } = await a.start({ goal: 'Open the shop', script: [{ type: 'navigate', url: 'https://shop.test/' }] })
    await a.report(await a.nextAction(opened), { ...PAGE, status: 'failed', errors: [{ code: 'NAVIGATION_FAILED', message: 'The site did not answer.' }] })
    expect((await a.waitFor(opened, 'FAILED')).task.status).toBe('FAILED')
    const res = await save({ taskId: opened })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/no step to replay/) })
  })

  it('answers NOT_FOUND for an unknown task and BAD_REQUEST for a bad body', async () => {
    expect((await save({ taskId: 'no_such_task' })).body.error.code).toBe('NOT_FOUND')
    for (const body of [{}, { taskId: 'x', slug: 'Bad Slug' }, { taskId: 'x', surprise: 1 }]) {
      const res = await save(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.code).toBe('BAD_REQUEST')
    }
    expect((await server.api('POST', '/api/skills', { taskId }, { token: null })).status).toBe(401)
  })
})
