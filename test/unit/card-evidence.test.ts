import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Action, ArtifactUpload, ScriptStep } from '#protocol'
import { createArtifactStore, decodeArtifacts, type DecodedArtifact } from '../../server/lib/audit/artifacts'
import { createAuditLog } from '../../server/lib/audit/log'
import { describeAction } from '../../extension/lib/panel/describe'
import { panelTranslator } from '../../extension/lib/panel/i18n'
import { pendingReasons } from '../../extension/lib/panel/reasons'
import { inProcessEngine } from '../support/engine'
import { PNG } from '../support/agent'
import { resolve } from 'node:path'
import { h } from 'preact'
import { signal } from '@preact/signals'
import { ConfirmEvidence } from '../../extension/components/ConfirmEvidence'
import type { PanelStore } from '../../extension/lib/panel/store'
import { loadSkills } from '../../server/lib/skills/load-skills'
import type { Lang } from '../../ui/i18n'
import type { StatusView } from '#protocol'
import { useMount } from '../support/mount'

const mount = useMount()
const panelStore = (view: StatusView, lang: Lang) =>
  ({ t: panelTranslator(lang), lang, task: { view: signal(view), images: signal({}), running: signal(null) } }) as unknown as PanelStore

const source = { clientId: 'c1', version: '0.1.0' }
const observation = { status: 'done' as const, url: 'http://chat.example/', title: 'Chat', elementTree: '', visibleTextSnippet: '', errors: [], timing: {} }
const MARK = { x: 0.62, y: 0.81, w: 0.09, h: 0.05 }
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-card-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/**
 * Runs the task until it waits for the person, as the extension would: a picture taken for a card finds the element
 * it names (`#send` is the button "Send message") and marks it; any other step just reports the page.
 */
async function untilAsked(script: ScriptStep[] | { skill: string; params: Record<string, string> }) {
  const store = createArtifactStore({ dir, fsync: false })
  const artifacts = { decode: (uploads: ArtifactUpload[]) => decodeArtifacts(uploads, 1_000_000), save: (taskId: string, prefix: string, d: unknown[]) => store.write(taskId, d as DecodedArtifact[], prefix) }
  const library = (await loadSkills(resolve('skills'))).skills
  const findSkill = async (slug: string) => library.find((s) => s.slug === slug)
  const engine = inProcessEngine(createStorage(), createAuditLog({ dir, fsync: false }), { artifacts, findSkill })
  const how = Array.isArray(script) ? { script } : script
  const { taskId } = await engine.start({ goal: 'say hello', clientId: 'c1', ...how }, source, 'http://127.0.0.1:3000')
  const pictures: Action[] = []
  for (let i = 0; i < 10; i++) {
    const { action } = await engine.next({ clientId: 'c1', taskId, waitMs: 0 }, source)
    if (!action) break
    const found = action.type === 'screenshot' && action.target ? { targetName: 'Send message' } : {}
    if (action.type === 'screenshot') pictures.push(action)
    const artifacts = action.type === 'screenshot' ? [{ label: 'screenshot' as const, contentType: 'image/png' as const, data: PNG, ...(action.target ? { mark: MARK } : {}) }] : []
    await engine.report({ taskId, actionId: action.actionId, observation: { ...observation, ...found, artifacts } }, source)
  }
  const status = await engine.status(taskId)
  return { status, pictures, pending: status.pendingConfirmation! }
}

describe('the confirmation card', () => {
  it('pictures the element a step is about and marks it, even when the page was pictured just before', async () => {
    const { status, pictures, pending } = await untilAsked([{ type: 'screenshot' }, { type: 'click', selector: '#send' }] as ScriptStep[])
    expect(status.task.status).toBe('WAITING_CONFIRMATION')
    // The script's own picture, then the one for the card, aimed at the element.
    expect(pictures.map((a) => a.target)).toEqual([undefined, { by: 'selector', value: '#send' }])
    expect(pending.evidence?.screenshot).toMatchObject({ label: 'screenshot', mark: MARK })
    expect(status.steps.at(-1)?.artifacts?.[0]?.mark).toEqual(MARK)
  })

  it('names the element by the words on it, never its selector, in what it does and why it is risky, in both languages', async () => {
    const { pending } = await untilAsked([{ type: 'click', selector: '#send' }] as ScriptStep[])
    expect(pending.evidence?.targetText).toBe('Send message')
    const en = panelTranslator('en')
    expect(describeAction(pending.action, en, pending.evidence?.targetText)).toBe('Click “Send message”')
    expect(pendingReasons(pending, 'en').join(' ')).toContain('"Send message"')
    expect(pendingReasons(pending, 'en').join(' ')).not.toMatch(/"send"|#send/)
    expect(pendingReasons(pending, 'zh-CN').join(' ')).toContain('“Send message”')
  })

  it('reads a recorded step’s role target as the name a person sees, without the role in front', async () => {
    const { status, pending } = await untilAsked([{ type: 'click', target: { by: 'role', value: 'button:Send message' }, risk: 'high' }] as ScriptStep[])
    expect(status.task.status).toBe('WAITING_CONFIRMATION')
    expect(pending.evidence?.targetText).toBe('Send message')
    for (const lang of ['en', 'zh-CN'] as const) expect(describeAction(pending.action, panelTranslator(lang), pending.evidence?.targetText)).not.toContain('button:')
    expect(describeAction(pending.action, panelTranslator('en'))).toBe('Click “Send message”')
  })
})

describe('the starter skill’s card for a Chinese reader', () => {
  it('says what the step is for in Chinese, and in English for an English reader', async () => {
    const { status, pending } = await untilAsked({ skill: 'demo-contact-form', params: { name: 'Ada', email: 'ada@example.test', message: 'hi' } })
    expect(status.task.status).toBe('WAITING_CONFIRMATION')
    expect(pending.goal).toBe('send the message')
    const zh = mount(h(ConfirmEvidence, { store: panelStore(status, 'zh-CN'), pending }))
    expect(zh.textContent).toContain('这一步的目的发送留言')
    expect(zh.textContent).not.toContain('send the message')
    expect(mount(h(ConfirmEvidence, { store: panelStore(status, 'en'), pending })).textContent).toContain('send the message')
    expect(status.task.wordsZh?.['Fill in the demo contact form']).toBe('填写演示联系表单')
  })
})
