import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { inReaderLang, SkillSearchResult, skillInLang, wordsZhOf, type Skill } from '#protocol'
import { loadSkills } from '../../server/lib/skills/load-skills'
import { createSkillIndex, type SkillIndex } from '../../server/lib/skills/search-index'
import { say } from '../../server/lib/terminal/words'
import { skill } from '../support/skill'


let library: Skill[]
let index: SkillIndex
beforeAll(async () => {
  library = (await loadSkills(resolve('skills'))).skills
  index = createSkillIndex(library)
})

describe('the starter skill the terminal suggests', () => {
  it('has its name and description in English and Chinese, the names being the ones the terminal suggests', () => {
    const starter = library.find((s) => s.slug === 'demo-contact-form')!
    expect(starter.name).toBe(say('starter', {}, 'en'))
    expect(starter['name-zh']).toBe(say('starter', {}, 'zh-CN'))
    expect(starter.description).not.toMatch(/\p{Script=Han}/u)
    expect(starter['description-zh']).toMatch(/^[^A-Za-z]*\p{Script=Han}/u)
  })

  it.each(['en', 'zh-CN'] as const)('is the first hit for the name a %s terminal suggests trying', (lang) => {
    const hits = index.search(say('starter', {}, lang))
    expect(hits[0]?.slug).toBe('demo-contact-form')
    expect(SkillSearchResult.parse(hits[0])).toMatchObject({ nameZh: '填写演示联系表单', descriptionZh: expect.stringContaining('入门技能') })
  })
})

describe('a whole name typed as the query', () => {
  const index = createSkillIndex([
    skill('fill-forms', { name: '填写表单', description: '填写表单，填写网页表单，提交表单', tags: ['表单', '填写'], body: '填写表单 填写表单 联系表单' }),
    skill('contact', { name: 'Contact us', 'name-zh': '填写联系表单', sites: ['example.com'] }),
  ])

  it("finds that skill first, in either of its languages, quotes and case aside, though another shares more of its words", () => {
    expect(index.search('填写联系表单')[0]?.slug).toBe('contact')
    expect(index.search('“填写联系表单”')[0]?.slug).toBe('contact')
    expect(index.search('contact US')[0]?.slug).toBe('contact')
    expect(index.search('填写联系表单').map((r) => r.slug)).toEqual(['contact', 'fill-forms'])
  })

  it('still keeps to the site asked for', () => {
    expect(index.search('填写联系表单', { site: 'other.test' }).map((r) => r.slug)).not.toContain('contact')
    expect(index.search('填写联系表单', { site: 'shop.example.com' })[0]?.slug).toBe('contact')
  })

  it('forgets a name the skill no longer has', () => {
    index.add(skill('contact', { name: 'Write to us', sites: ['example.com'] }))
    expect(index.search('填写联系表单')[0]?.slug).toBe('fill-forms')
  })
})

describe('skillInLang', () => {
  it('gives a Chinese reader the Chinese name and description when there are some, and the English otherwise', () => {
    const listed = { name: 'Send it', description: 'Sends it.', 'name-zh': '发送', 'description-zh': '把它发出去。' }
    expect(skillInLang(listed, 'zh-CN')).toEqual({ name: '发送', description: '把它发出去。' })
    expect(skillInLang({ name: 'Send it', description: 'Sends it.', nameZh: '发送' }, 'zh-CN')).toEqual({ name: '发送', description: 'Sends it.' })
    expect(skillInLang(listed, 'en')).toEqual({ name: 'Send it', description: 'Sends it.' })
  })
})

describe('the starter skill’s steps in the reader’s language', () => {
  it('has Chinese for every reason its steps give and every risky step it names', () => {
    const starter = library.find((s) => s.slug === 'demo-contact-form')!
    const words = wordsZhOf(starter)!
    const said = [...(starter.script ?? []).map((step) => ('reason' in step ? step.reason : undefined)).filter((r): r is string => !!r), ...starter['risky-steps']]
    expect(said.length).toBeGreaterThan(5)
    for (const text of said) expect(inReaderLang(text, words, 'zh-CN'), text).toMatch(/\p{Script=Han}/u)
    expect(inReaderLang('send the message', words, 'zh-CN')).toBe('发送留言')
    expect(inReaderLang('send the message', words, 'en')).toBe('send the message')
    // The task says which skill it follows in Chinese too.
    expect(inReaderLang(starter.name, words, 'zh-CN')).toBe('填写演示联系表单')
    // Words it has no Chinese for stay as they are, and nothing inherited from Object passes for a translation.
    expect(inReaderLang('toString', words, 'zh-CN')).toBe('toString')
  })
})
