import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SaveSkillData, ScriptStep, SkillSearchResult } from '#protocol'
import { parseSkill } from '../../server/lib/skills/parse-skill'
import { outputFolder } from '../support/outputs'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
let folder: ReturnType<typeof outputFolder>
let skillsDir: string
beforeAll(async () => {
  folder = outputFolder('recorded-skills')
  skillsDir = join(folder.dir, 'skills')
  server = await startServer({ env: { TANDEM_USER_SKILLS_DIR: skillsDir } })
})
afterAll(async () => {
  await server.close()
  if (!folder.keep) rmSync(folder.dir, { recursive: true, force: true })
})

const STEPS: ScriptStep[] = [
  { type: 'type', target: { by: 'role', value: 'textbox:Full name' }, selector: '#fullname', text: '{{fullname}}', clear: true, reason: 'Fill in “Full name” with {{fullname}}' },
  { type: 'type', selector: '#code', text: '{{code}}', clear: true, reason: 'Fill in “Access code” with {{code}}' },
  { type: 'click', target: { by: 'role', value: 'button:Send request' }, text: 'Send request', selector: 'button.btn-send', reason: 'Click “Send request”' },
]
const BODY = {
  name: 'Book a room at the fixture',
  sop: '从 http://127.0.0.1:9/book 开始。\n\n1. 在“Full name”中填写 {{fullname}}\n2. 点击“Send request”',
  steps: STEPS,
  parameters: [
    { name: 'fullname', label: 'Full name' },
    { name: 'code', label: 'Access code' },
  ],
  startUrl: 'http://127.0.0.1:9/book',
}
const save = (body: unknown) => server.api('POST', '/api/skills/recorded', body)

describe('POST /api/skills/recorded', () => {
  it('needs the token', async () => {
    const res = await fetch(`${server.url}/api/skills/recorded`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(BODY) })
    expect(res.status).toBe(401)
  })

  it('refuses a typed value that is not a {{name}}, and a {{name}} that is not declared', async () => {
    const literal = await save({ ...BODY, steps: [{ ...STEPS[0], text: 'Grace Hopper' }] })
    expect(literal.status).toBe(400)
    expect(literal.body.error.code).toBe('BAD_REQUEST')
    const undeclared = await save({ ...BODY, parameters: [{ name: 'fullname', label: 'Full name' }] })
    expect(undeclared.status).toBe(400)
    expect(JSON.stringify(undeclared.body)).toContain('{{code}} is not among the parameters')
  })

  it('saves the person’s SOP and the script with every target, and the skill is found at once', async () => {
    const res = await save(BODY)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const { skill, file } = res.body.data as SaveSkillData
    expect(skill).toMatchObject({ slug: 'book-a-room-at-the-fixture', scripted: true, sites: ['127.0.0.1'], own: true, 'start-url': 'http://127.0.0.1:9/book' })
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('2. 点击“Send request”')
    expect(parseSkill(skill.slug, text).script).toEqual(STEPS)
    const found = await server.api('GET', '/api/skills/search?q=book%20room%20fixture')
    const hit = (found.body.data as SkillSearchResult[]).find((s) => s.slug === skill.slug)
    expect(hit?.parameters).toEqual(BODY.parameters)
    // Saving again under the same name is a conflict the panel tells the person about.
    const again = await save(BODY)
    expect(again.status).toBe(409)
    expect(again.body.error.details).toMatchObject({ slug: 'book-a-room-at-the-fixture' })
  })
})
