import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Action, ObservationInput, SaveSkillData, ScriptStep, SkillSearchResult, SkillSummary } from '#protocol'
import { parseSkill } from '../../server/lib/skills/parse-skill'
import { agent, ok } from '../support/agent'
import { startServer, type TestServer } from '../support/server'

const SHIPPED = resolve('skills')
const NAME = 'Grace Hopper'
const EMAIL = 'grace.hopper@navy.test'

const PAGE: Partial<ObservationInput> = {
  url: 'https://contact.test/form',
  title: 'Contact',
  elementTree: '[0]<input type=text name=fullname>\n[1]<input type=email name=email>\n[2]<select name=topic>\n[3]<button id=send>Send</button>',
  elements: [
    { index: 0, tag: 'input', attributes: { type: 'text', name: 'fullname' }, fingerprint: 'f0' },
    { index: 1, tag: 'input', attributes: { type: 'email', name: 'email' }, fingerprint: 'f1' },
    { index: 2, tag: 'select', attributes: { name: 'topic' }, fingerprint: 'f2' },
    { index: 3, tag: 'button', text: 'Send', attributes: { id: 'send' }, fingerprint: 'f3' },
  ],
}

/** A contact form filled in by hand: a name and an email typed (the person's own), a topic chosen from a list. */
const FILLED: ScriptStep[] = [
  { type: 'type', index: 0, text: NAME, reason: `type ${NAME}` },
  { type: 'type', index: 1, text: EMAIL },
  { type: 'select', index: 2, option: 'Question' },
  { type: 'click', index: 3, reason: 'send it' },
]

let server: TestServer
let a: ReturnType<typeof agent>
let shippedBefore: string[]
beforeAll(async () => {
  shippedBefore = readdirSync(SHIPPED).sort()
  server = await startServer({ env: { TANDEM_SKILLS_DIR: SHIPPED } })
  a = agent(server)
})
afterAll(() => server.close())

/** Acts as the extension and the person: every action done on PAGE, every confirmation approved. */
async function runToEnd(taskId: string) {
  const proposed: Action[] = []
  for (let i = 0; i < 40; i++) {
    const view = await a.status(taskId)
    if (['SUCCEEDED', 'FAILED', 'CANCELED'].includes(view.task.status)) return { view, proposed }
    if (view.pendingConfirmation) {
      await a.confirm(taskId, view.pendingConfirmation.actionId, true)
      continue
    }
    const { action } = await a.next(taskId, 2000)
    if (!action) continue
    if (!proposed.some((p) => p.actionId === action.actionId)) proposed.push(action)
    await a.report(action, PAGE)
  }
  throw new Error(`task ${taskId} did not finish`)
}

describe('a skill saved by the person', () => {
  let saved: SaveSkillData

  it('is written under the data dir, never into the shipped skills folder, with what was typed made parameters', async () => {
    const { taskId } = await a.start({ goal: `Send ${NAME}'s question through the contact form`, startUrl: 'https://contact.test/form', script: FILLED })
    expect((await runToEnd(taskId)).view.task.status).toBe('SUCCEEDED')
    saved = await ok<SaveSkillData>(server.api('POST', '/api/skills', { taskId }))

    expect(saved.file).toBe(join(server.dataDir, 'skills', saved.skill.slug, 'SKILL.md'))
    expect(existsSync(saved.file)).toBe(true)
    expect(readdirSync(SHIPPED).sort()).toEqual(shippedBefore)
    expect(saved.skill).toMatchObject({
      own: true,
      parameters: [
        { name: 'fullname', label: 'fullname' },
        { name: 'email', label: 'email' },
      ],
      'start-url': 'https://contact.test/form',
    })

    const text = readFileSync(saved.file, 'utf8')
    expect(text).not.toContain(NAME)
    expect(text).not.toContain(EMAIL)
    expect(text).not.toContain('Grace')
    const skill = parseSkill(saved.skill.slug, text)
    expect(skill.name).toBe("Send {{fullname}}'s question through the contact form")
    expect(skill.script).toEqual([
      { type: 'navigate', url: 'https://contact.test/form' },
      { type: 'type', selector: 'input[name="fullname"]', text: '{{fullname}}', reason: 'type {{fullname}}' },
      { type: 'type', selector: 'input[name="email"]', text: '{{email}}' },
      // A choice from a fixed list is not the person's own: it stays as it was.
      { type: 'select', selector: 'select[name="topic"]', option: 'Question' },
      { type: 'click', selector: '#send', reason: 'send it', risk: 'high' },
    ])
    expect(skill.body).toContain('## What you fill in')
    expect(skill.body).toContain('- {{email}}')
  })

  it('is listed and found by search as the person’s own, with its parameters and start URL; shipped ones are not marked', async () => {
    const list = await ok<SkillSummary[]>(server.api('GET', '/api/skills'))
    expect(list.find((s) => s.slug === saved.skill.slug)).toMatchObject({ own: true })
    expect(list.find((s) => s.slug === 'login-safely')?.own).toBeUndefined()
    const found = await ok<SkillSearchResult[]>(server.api('GET', '/api/skills/search?q=contact%20form%20question'))
    expect(found.find((s) => s.slug === saved.skill.slug)).toMatchObject({
      own: true,
      startUrl: 'https://contact.test/form',
      parameters: [{ name: 'fullname' }, { name: 'email' }],
    })
  })

  it('runs only with its parameters filled in, typing the values given for this run', async () => {
    const start = (params?: Record<string, string>) =>
      server.api('POST', '/api/agent/start', { goal: 'ask again', skill: saved.skill.slug, clientId: 'client_test_1', ...(params ? { params } : {}) })
    const missing = await start({ fullname: 'Ada' })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatchObject({ code: 'BAD_REQUEST', details: { missing: ['email'] } })

    const { taskId } = await ok<{ taskId: string }>(start({ fullname: 'Ada Lovelace', email: 'ada@engine.test' }))
    const run = await runToEnd(taskId)
    expect(run.view.task).toMatchObject({ status: 'SUCCEEDED', mode: 'script' })
    expect(run.view.usage.llmCalls).toBe(0)
    expect(run.proposed.filter((p) => p.type !== 'screenshot').map((p) => [p.type, p.params])).toEqual([
      ['navigate', { url: 'https://contact.test/form' }],
      ['type', expect.objectContaining({ text: 'Ada Lovelace' })],
      ['type', expect.objectContaining({ text: 'ada@engine.test' })],
      ['select', expect.objectContaining({ option: 'Question' })],
      ['click', expect.anything()],
    ])
  })

  it('never replaces a shipped skill, even when asked to overwrite', async () => {
    const { taskId } = await a.start({ goal: 'whatever', script: [{ type: 'navigate', url: 'https://contact.test/form' }] })
    await runToEnd(taskId)
    const res = await server.api('POST', '/api/skills', { taskId, slug: 'login-safely', overwrite: true })
    expect(res.status).toBe(409)
    expect(res.body.error.details).toMatchObject({ slug: 'login-safely', shipped: true })
    expect(readFileSync(join(SHIPPED, 'login-safely', 'SKILL.md'), 'utf8')).not.toContain('whatever')
    expect(readdirSync(SHIPPED).sort()).toEqual(shippedBefore)
  })
})

describe('the starter skill and its demo page', () => {
  it('serves the demo page without a token, while the API still wants one, and / leads to the console', async () => {
    const demo = await fetch(`${server.url}/demo/`)
    expect(demo.status).toBe(200)
    expect(await demo.text()).toContain('<form id="contact"')
    expect((await fetch(`${server.url}/api/skills`)).status).toBe(401)
    const root = await fetch(`${server.url}/`, { redirect: 'manual' })
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/console/')
  })

  it('is found in English and in Chinese, and starts on this server’s demo page with no LLM', async () => {
    // What the panel's search shows (its first five), in either language.
    for (const q of ['contact form', 'contact form demo', 'try without llm', '联系表单', '演示', '演示 联系表单', '试用']) {
      const found = await ok<SkillSearchResult[]>(server.api('GET', `/api/skills/search?q=${encodeURIComponent(q)}`))
      expect(found.slice(0, 5).find((s) => s.slug === 'demo-contact-form'), q).toMatchObject({ scripted: true, parameters: [{ name: 'name' }, { name: 'email' }, { name: 'message' }] })
    }
    const { taskId } = await ok<{ taskId: string }>(
      server.api('POST', '/api/agent/start', { goal: 'try the demo', skill: 'demo-contact-form', clientId: 'client_test_1', params: { name: 'Ada', email: 'ada@engine.test', message: 'Hello' } }),
    )
    const first = await a.nextAction(taskId)
    expect(first).toMatchObject({ type: 'navigate', params: { url: `${server.url}/demo/` } })
  })
})
