import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SaveRecordingBody, Skill } from '#protocol'
import { skillWords } from '#protocol'
import { loadSkills } from '../../server/lib/skills/load-skills'
import { createSkillSaver } from '../../server/lib/skills/save-skill'
import { createSkillIndex } from '../../server/lib/skills/search-index'

const recording = (name: string, over: Partial<SaveRecordingBody> = {}): SaveRecordingBody => ({
  name,
  sop: `Fill in the form and send it.`,
  steps: [
    { type: 'type', selector: '#name', text: '{{your_name}}' },
    { type: 'click', text: 'Send' },
  ],
  parameters: [{ name: 'your_name', label: 'Your name' }],
  startUrl: 'https://forms.test/contact',
  ...over,
})

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tandem-skill-names-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function setup(shipped: Skill[] = []) {
  const index = createSkillIndex(shipped)
  const saver = createSkillSaver({
    status: () => Promise.reject(new Error('not used')),
    events: () => Promise.reject(new Error('not used')),
    skillsDir: dir,
    index: async () => index,
  })
  return { index, saver }
}

describe('a skill saved under the name the person gave it', () => {
  it('keeps a Chinese name exactly, in SKILL.md, the list, search and after a restart', async () => {
    const { index, saver } = setup()
    const { skill, file } = await saver.saveRecording(recording('给演示页面发送反馈'))
    expect(skill.name).toBe('给演示页面发送反馈')
    expect(skill.slug).toMatch(/^skill-[0-9a-f]{6}$/)
    expect(readFileSync(file, 'utf8')).toContain('name: "给演示页面发送反馈"')
    expect(index.list().map((s) => s.name)).toEqual(['给演示页面发送反馈'])
    expect(index.search('发送反馈').map((s) => s.name)).toEqual(['给演示页面发送反馈'])
    expect(index.get(skill.slug)?.name).toBe('给演示页面发送反馈')
    const reloaded = await loadSkills(dir)
    expect(reloaded.problems).toEqual([])
    expect(reloaded.skills.map((s) => [s.slug, s.name])).toEqual([[skill.slug, '给演示页面发送反馈']])
  })

  it('never lets two Chinese names share one skill', async () => {
    const { index, saver } = setup()
    const a = await saver.saveRecording(recording('发送反馈'))
    const b = await saver.saveRecording(recording('预订会议室'))
    expect(a.skill.slug).not.toBe(b.skill.slug)
    expect(index.list().map((s) => s.name).sort()).toEqual(['发送反馈', '预订会议室'].sort())
  })

  it('asks before a second skill of the same name replaces the first, and keeps both when told to', async () => {
    const { index, saver } = setup()
    const first = await saver.saveRecording(recording('发送反馈', { sop: 'The first way.' }))
    await expect(saver.saveRecording(recording('发送反馈', { sop: 'The second way.' }))).rejects.toMatchObject({
      statusCode: 409,
      data: { code: 'CONFLICT', details: { slug: first.skill.slug, name: '发送反馈' } },
    })
    expect(index.get(first.skill.slug)?.body).toContain('The first way.')
    const both = await saver.saveRecording(recording('发送反馈', { sop: 'The second way.', keepBoth: true }))
    expect(both.skill.slug).toBe(`${first.skill.slug}-2`)
    expect(index.get(first.skill.slug)?.body).toContain('The first way.')
    expect(index.list().map((s) => s.name)).toEqual(['发送反馈', '发送反馈'])
    expect(readdirSync(dir).sort()).toEqual([first.skill.slug, both.skill.slug].sort())
    const replaced = await saver.saveRecording(recording('发送反馈', { sop: 'The third way.', overwrite: true }))
    expect(replaced.skill.slug).toBe(first.skill.slug)
    expect(index.get(first.skill.slug)?.body).toContain('The third way.')
  })

  it('finds a skill of the same name whatever its slug, and replaces that one when told to', async () => {
    const { index, saver } = setup()
    const first = await saver.saveRecording(recording('Send feedback', { slug: 'my-feedback', sop: 'The first way.' }))
    await expect(saver.saveRecording(recording('  send  FEEDBACK '))).rejects.toMatchObject({ data: { code: 'CONFLICT', details: { slug: 'my-feedback', name: 'Send feedback' } } })
    const replaced = await saver.saveRecording(recording('Send feedback', { sop: 'The second way.', overwrite: true }))
    expect(replaced.skill.slug).toBe(first.skill.slug)
    expect(index.list().map((s) => [s.slug, s.excerpt])).toEqual([['my-feedback', 'The second way.']])
  })

  it('moves aside for a skill of another name that its name’s slug would land on, and for a shipped one', async () => {
    const shipped = { ...(await loadOne('Send feedback')), slug: 'send-feedback' }
    const { index, saver } = setup([shipped])
    const mine = await saver.saveRecording(recording('Send feedback'))
    expect(mine.skill.slug).toBe('send-feedback-2')
    const other = await saver.saveRecording(recording('Send: feedback!'))
    expect(other.skill.slug).toBe('send-feedback-3')
    expect(index.get('send-feedback')?.own).toBeUndefined()
  })
})

async function loadOne(name: string): Promise<Skill> {
  const { index, saver } = setup()
  const { skill } = await saver.saveRecording(recording(name))
  const { own: _own, ...rest } = index.get(skill.slug)!
  rmSync(join(dir, skill.slug), { recursive: true })
  return rest
}

describe('skillWords: what a person reads for a skill’s placeholders', () => {
  const parameters = [
    { name: 'your_name', label: 'Your name' },
    { name: 'q', label: 'URL' },
    { name: 'city', label: '城市' },
  ]
  it('names each parameter by its label and says it is asked each run, in English and Chinese', () => {
    expect(skillWords('Type {{your_name}} into “Name”', parameters, 'en')).toBe('Type your name (asked each run) into “Name”')
    expect(skillWords('- `{{q}}`', parameters, 'en')).toBe('- URL (asked each run)')
    expect(skillWords('在“城市”中填写 {{city}}', parameters, 'zh-CN')).toBe('在“城市”中填写 城市（每次运行时询问）')
    expect(skillWords('{{your_name}}', parameters, 'zh-CN')).toBe('your name（每次运行时询问）')
    expect(skillWords('Fill {{full_name}}', undefined, 'en')).toBe('Fill full name (asked each run)')
    expect(skillWords('Type “{{secret:SHOP_PW}}”', parameters, 'en')).toBe('Type “the secret SHOP_PW (set on the server)”')
    expect(skillWords('输入 {{secret:SHOP_PW}}', parameters, 'zh-CN')).toBe('输入 机密 SHOP_PW（在服务器上设置）')
    expect(skillWords('no placeholder', parameters, 'en')).toBe('no placeholder')
  })
})
