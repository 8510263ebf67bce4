import { describe, expect, it } from 'vitest'
import type { SkillSearchResult } from '#protocol'
import { setupPanel as setup } from './panel-fakes'

const DEMO: SkillSearchResult = {
  slug: 'demo-contact-form',
  name: 'Fill in the demo contact form',
  description: '',
  sites: [],
  tags: [],
  risk: 'high',
  scripted: true,
  score: 1,
  parameters: [
    { name: 'name', label: 'Your name' },
    { name: 'email', label: 'Email' },
  ],
  startUrl: '/demo/',
}

describe('panel: a skill that asks for values at run time', () => {
  it('asks for every parameter before it starts, and sends them with the start only', async () => {
    const { store, client } = setup({ followed: null })
    await store.load()
    store.newTask.pickSkill(DEMO)
    expect(store.newTask.draft.value.skill).toEqual({
      slug: 'demo-contact-form',
      name: 'Fill in the demo contact form',
      scripted: true,
      parameters: [
        { name: 'name', label: 'Your name' },
        { name: 'email', label: 'Email' },
      ],
    })
    store.newTask.setGoal('try the demo')
    store.newTask.setParam('name', 'Ada Lovelace')
    await store.newTask.start()
    expect(client.start).not.toHaveBeenCalled()
    expect(store.notice.value).toEqual({ text: 'Fill in “Email” for the skill first.', tone: 'error' })

    store.newTask.setParam('email', ' ada@engine.test ')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({
      goal: 'try the demo',
      skill: 'demo-contact-form',
      params: { name: 'Ada Lovelace', email: 'ada@engine.test' },
    })
    // Once the task is started the values are gone: a second run asks again.
    expect(store.newTask.params.value).toEqual({})
    expect(store.newTask.draft.value.skill).toBeNull()
  })

  it('never keeps the values in the stored draft', async () => {
    const { store, deps } = setup({ followed: null })
    await store.load()
    store.newTask.pickSkill(DEMO)
    store.newTask.setParam('email', 'ada@engine.test')
    store.newTask.setGoal('try it')
    const stored = JSON.stringify(await deps.draft.get())
    expect(stored).toContain('demo-contact-form')
    expect(stored).not.toContain('ada@engine.test')
  })

  it('says what is missing in Chinese, with a Chinese list mark', async () => {
    const { store, client } = setup({ followed: null, lang: 'zh-CN' })
    await store.load()
    store.newTask.pickSkill(DEMO)
    store.newTask.setGoal('试一下')
    await store.newTask.start()
    expect(client.start).not.toHaveBeenCalled()
    expect(store.notice.value?.text).toBe('请先为技能填写：“Your name”、“Email”。')
  })

  it('a skill without parameters starts as before, and picking another skill forgets the values', async () => {
    const { store, client } = setup({ followed: null })
    await store.load()
    store.newTask.pickSkill(DEMO)
    store.newTask.setParam('name', 'Ada')
    store.newTask.pickSkill({ slug: 'login-safely', name: 'Log in safely', scripted: false })
    expect(store.newTask.params.value).toEqual({})
    store.newTask.setGoal('log in')
    await store.newTask.start()
    expect(client.start).toHaveBeenCalledWith({ goal: 'log in', skill: 'login-safely' })
  })
})

describe('panel: a skill named in both languages', () => {
  const both: SkillSearchResult = { ...DEMO, nameZh: '填写演示联系表单', descriptionZh: '入门技能' }

  it('follows it under its Chinese name in a Chinese panel, and its English one in an English panel', async () => {
    const zh = setup({ followed: null, lang: 'zh-CN' })
    await zh.store.load()
    zh.store.newTask.pickSkill(both)
    expect(zh.store.newTask.draft.value.skill?.name).toBe('填写演示联系表单')
    const en = setup({ followed: null })
    await en.store.load()
    en.store.newTask.pickSkill(both)
    expect(en.store.newTask.draft.value.skill?.name).toBe('Fill in the demo contact form')
  })
})
