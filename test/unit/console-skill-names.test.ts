import { parseHTML } from 'linkedom'
import { h, render } from 'preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { Skill, SkillSummary } from '#protocol'
import { createApi } from '../../ui/console/api'
import { SkillPage } from '../../ui/console/components/SkillPage'
import { SkillsPage } from '../../ui/console/components/SkillsPage'
import { ConsoleContext } from '../../ui/console/context'
import { consoleTranslator } from '../../ui/console/i18n'
import { createConsoleStore } from '../../ui/console/store'
import type { Lang } from '../../ui/i18n'

const PARAMETERS = [{ name: 'full_name', label: 'Your name' }]
const SUMMARY: SkillSummary = {
  slug: 'skill-3fa9c1',
  name: '给演示页面发送反馈',
  description: 'Sends feedback signed {{full_name}}',
  sites: ['127.0.0.1'],
  tags: ['recorded'],
  risk: 'high',
  'allowed-actions': ['type', 'click'],
  'risky-steps': [],
  parameters: PARAMETERS,
  excerpt: 'Sends feedback',
  scripted: true,
  own: true,
}
const SKILL: Skill = {
  ...SUMMARY,
  body: '# 给演示页面发送反馈\n\n## What you fill in\n- {{full_name}}\n\n## Steps\n1. Type “{{full_name}}” into “Name”\n2. Type “{{secret:DEMO_PW}}” into “Password”',
  script: [{ type: 'type', selector: '#name', text: '{{full_name}}' }],
}

// Preact renders into whatever `document` is global: a linkedom one stands in for the browser's.
const savedDocument = globalThis.document
afterEach(() => {
  globalThis.document = savedDocument
})
const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

async function mount(lang: Lang, hash: string, page: ReturnType<typeof h<any>>): Promise<HTMLElement> {
  globalThis.document = parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document
  const fetch = (async (input: RequestInfo | URL) => {
    const json = (data: unknown) => new Response(JSON.stringify({ ok: true, data }), { status: 200, headers: { 'content-type': 'application/json' } })
    return json(String(input) === '/api/skills' ? [SUMMARY] : String(input).startsWith('/api/skills/') ? SKILL : [])
  }) as typeof globalThis.fetch
  const t = consoleTranslator(lang)
  const store = createConsoleStore({
    api: createApi({ token: () => 'tok', fetch }),
    t,
    lang,
    place: {
      storage: { getItem: () => 'tok', setItem: () => undefined, removeItem: () => undefined },
      location: { hash, pathname: '/console/', search: '' },
      history: { replaceState: () => undefined },
    },
    objectUrl: { create: () => 'blob:0', revoke: () => undefined },
    save: () => undefined,
  })
  store.start()
  await settle()
  const root = document.createElement('div')
  document.body.appendChild(root)
  render(h(ConsoleContext.Provider, { value: { store, t, lang } }, page), root)
  return root
}

describe('the console shows skills by their names, and what they ask for in words', () => {
  it('lists a skill by its Chinese name, without its slug or a {{name}}', async () => {
    const root = await mount('en', '#/skills', h(SkillsPage, {}))
    const item = root.querySelector('[data-skill="skill-3fa9c1"]')!
    expect(item.querySelector('.skill-name')?.textContent).toBe('给演示页面发送反馈')
    expect(item.textContent).toContain('Sends feedback signed your name (asked each run)')
    expect(item.textContent).not.toMatch(/skill-3fa9c1|\{\{/)
  })

  it('shows a skill’s SOP with each value it asks for in words, in English and Chinese', async () => {
    const en = await mount('en', '#/skills/skill-3fa9c1', h(SkillPage, { slug: 'skill-3fa9c1' }))
    const body = en.querySelector('[data-testid="skill-body"]')!.textContent!
    expect(body).toContain('- your name (asked each run)')
    expect(body).toContain('1. Type “your name (asked each run)” into “Name”')
    expect(body).toContain('2. Type “the secret DEMO_PW (set on the server)” into “Password”')
    expect(en.textContent).not.toContain('{{')
    const zh = await mount('zh-CN', '#/skills/skill-3fa9c1', h(SkillPage, { slug: 'skill-3fa9c1' }))
    expect(zh.querySelector('[data-testid="skill-body"]')!.textContent).toContain('- your name（每次运行时询问）')
    expect(zh.querySelector('.skill-name')?.textContent).toBe('给演示页面发送反馈')
    expect(zh.textContent).not.toContain('{{')
  })
})
