import { h } from 'preact'
import { describe, expect, it } from 'vitest'
import type { SkillSearchResult } from '#protocol'
import { SaveSkill } from '../components/SaveSkill'
import { SkillPicker } from '../components/SkillPicker'
import { TaskPanel } from '../components/TaskPanel'
import { setupPanel as setup, task, view } from './panel-fakes'
import { useMount } from '../../test/support/mount'

const mount = useMount()

const ORDER: SkillSearchResult = {
  slug: 'skill-3fa9c1',
  name: '在商店里买 {{q}}',
  description: 'Buys {{q}} for {{full_name}} with {{secret:SHOP_PW}}',
  sites: ['shop.test'],
  tags: [],
  risk: 'high',
  scripted: true,
  score: 1,
  parameters: [
    { name: 'q', label: 'Search' },
    { name: 'full_name', label: 'Your name' },
  ],
}

describe('the panel shows skills by their names, and what they ask for in words', () => {
  it('lists search results and the picked skill by name, never by slug or {{name}}', async () => {
    const { store, client } = setup({ followed: null })
    client.searchSkills.mockResolvedValueOnce([ORDER])
    await store.load()
    await store.newTask.searchSkills('买')
    const list = mount(h(SkillPicker, { store })).textContent!
    expect(list).toContain('在商店里买 search (asked each run)')
    expect(list).toContain('Buys search (asked each run) for your name (asked each run) with the secret SHOP_PW (set on the server)')
    expect(list).not.toMatch(/\{\{|skill-3fa9c1/)
    store.newTask.pickSkill(ORDER)
    const picked = mount(h(SkillPicker, { store })).textContent!
    expect(picked).toContain('Following the skill “在商店里买 search (asked each run)”')
    expect(picked).not.toContain('{{')
  })

  it('speaks Chinese', async () => {
    const { store, client } = setup({ followed: null, lang: 'zh-CN' })
    client.searchSkills.mockResolvedValueOnce([ORDER])
    await store.load()
    await store.newTask.searchSkills('买')
    expect(mount(h(SkillPicker, { store })).textContent).toContain('在商店里买 search（每次运行时询问）')
    store.newTask.pickSkill(ORDER)
    expect(mount(h(SkillPicker, { store })).textContent).toContain('按技能“在商店里买 search（每次运行时询问）”执行')
  })

  it('says which skill a task follows by its name, and by the slug only for a task from before names were kept', async () => {
    const named = setup({ views: { task1: view('RUNNING', { task: task('task1', 'RUNNING', { skill: 'skill-3fa9c1', skillName: '给演示页面发送反馈' }) }) } })
    await named.store.load()
    const line = mount(h(TaskPanel, { store: named.store })).querySelector('[data-testid="task-skill"]')!.textContent
    expect(line).toBe('Following the skill “给演示页面发送反馈”')
    // A skill written in English with a Chinese name of its own is followed under that name by a Chinese panel.
    const words = { 'Fill in the demo contact form': '填写演示联系表单' }
    const starter = task('task1', 'RUNNING', { skill: 'demo-contact-form', skillName: 'Fill in the demo contact form', wordsZh: words })
    const zh = setup({ lang: 'zh-CN', views: { task1: view('RUNNING', { task: starter }) } })
    await zh.store.load()
    expect(mount(h(TaskPanel, { store: zh.store })).querySelector('[data-testid="task-skill"]')!.textContent).toContain('“填写演示联系表单”')
    const old = setup({ views: { task1: view('RUNNING', { task: task('task1', 'RUNNING', { skill: 'demo-contact-form' }) }) } })
    await old.store.load()
    expect(mount(h(TaskPanel, { store: old.store })).querySelector('[data-testid="task-skill"]')!.textContent).toBe('Following the skill “demo-contact-form”')
  })

  it('offers no slug to type when saving, and names a clash by the skill’s name', async () => {
    const sent = { seq: 1, actionId: 'a1', type: 'click', risk: 'low' as const, outcome: 'done' as const, errors: [], at: '2025-01-01T00:00:00Z' }
    const { store } = setup({ views: { task1: view('SUCCEEDED', { task: task('task1', 'SUCCEEDED', { goal: '发送反馈' }), steps: [sent] }) }, skills: ['发送反馈'] })
    await store.load()
    store.saveSkill.open()
    let form = mount(h(SaveSkill, { store }))
    expect(form.querySelectorAll('input').length).toBe(1)
    await store.saveSkill.save()
    form = mount(h(SaveSkill, { store }))
    expect(form.querySelector('[data-testid="skill-conflict"]')?.textContent).toBe('You have a skill called “发送反馈” already. Replace it with this one, or keep both.')
    expect([...form.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Replace it', 'Keep both', 'Cancel'])
    await store.saveSkill.save('keepBoth')
    const saved = mount(h(SaveSkill, { store })).querySelector('[data-testid="skill-saved"]')!
    expect(saved.textContent).toBe('Saved as the skill “发送反馈”. It runs its script without an LLM.')
  })
})
