import { describe, expect, it } from 'vitest'
import type { StepView } from '#protocol'
import { ServerError } from '../lib/server/errors'
import { setupPanel as setup, task, view } from './panel-fakes'

const step = (seq: number, type: string, outcome: StepView['outcome']): StepView => ({ seq, actionId: `a${seq}`, type, risk: 'low', outcome, errors: [], at: '2025-01-01T00:00:00Z' })
/** A task that opened its page and clicked there: something to replay. */
const worked = [step(1, 'navigate', 'done'), step(2, 'click', 'done')]
const finished = (goal = 'Buy an  iPhone 15\nfor Ada') => ({ task1: view('SUCCEEDED', { task: task('task1', 'SUCCEEDED', { goal }), steps: worked }) })

describe('panel store: save a finished task as a skill', () => {
  it('is offered only once the task is over, with the goal as the name', async () => {
    const { store, views } = setup({ views: { task1: view('RUNNING') } })
    await store.load()
    expect(store.saveSkill.offered.value).toBe(false)
    store.saveSkill.open()
    expect(store.saveSkill.form.value).toBeNull()
    Object.assign(views, finished())
    await store.refresh()
    expect(store.saveSkill.offered.value).toBe(true)
    store.saveSkill.open()
    expect(store.saveSkill.form.value).toEqual({ taskId: 'task1', name: 'Buy an iPhone 15 for Ada', conflict: null })
  })

  it('is not offered for a task with no step to replay: none worked, or it only took pictures', async () => {
    const nothing = {
      failed: [step(1, 'navigate', 'failed'), step(2, 'click', 'failed')],
      pictures: [step(1, 'screenshot', 'done'), step(2, 'observe', 'done')],
      takenOver: [step(1, 'waitFor', 'taken_over')],
      rejected: [step(1, 'click', 'rejected')],
      none: [],
    }
    for (const [name, steps] of Object.entries(nothing)) {
      const { store } = setup({ views: { task1: view('FAILED', { steps }) } })
      await store.load()
      expect(store.saveSkill.offered.value, name).toBe(false)
      store.saveSkill.open()
      expect(store.saveSkill.form.value, name).toBeNull()
    }
  })

  it('saves under the name given and says it by that name, never by its slug', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('  给 Ada 买手机 ')
    await store.saveSkill.save()
    expect(client.saveSkill).toHaveBeenCalledWith({ taskId: 'task1', name: '给 Ada 买手机' })
    expect(store.saveSkill.saved.value).toEqual({ taskId: 'task1', slug: 'buy-a-phone', name: '给 Ada 买手机', scripted: true })
    expect(store.saveSkill.form.value).toBeNull()
    expect(store.saveSkill.offered.value).toBe(false)
    expect(store.notice.value).toEqual({ text: 'Saved as the skill “给 Ada 买手机”.', tone: 'info' })
  })

  it('says a value the skill asks for in words, not as {{name}}', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('')
    await store.saveSkill.save()
    expect(client.saveSkill).toHaveBeenCalledWith({ taskId: 'task1' })
    expect(store.saveSkill.saved.value?.name).toBe('Buy a search (asked each run)')
    expect(store.notice.value?.text).toBe('Saved as the skill “Buy a search (asked each run)”.')
  })

  it('names the skill of the same name the person has, and replaces it or keeps both only when asked', async () => {
    const { store, client } = setup({ views: finished(), skills: ['Phone for Ada'] })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('Phone for Ada')
    await store.saveSkill.save()
    expect(store.saveSkill.saved.value).toBeNull()
    expect(store.saveSkill.form.value).toMatchObject({ name: 'Phone for Ada', conflict: 'Phone for Ada' })
    expect(store.t('save.conflict', { name: 'Phone for Ada' })).toBe('You have a skill called “Phone for Ada” already. Replace it with this one, or keep both.')
    // Another name is a fresh try: the clash is forgotten.
    store.saveSkill.setName('Phone for Ada, again')
    expect(store.saveSkill.form.value?.conflict).toBeNull()
    store.saveSkill.setName('Phone for Ada')
    await store.saveSkill.save()
    expect(store.saveSkill.form.value?.conflict).toBe('Phone for Ada')
    await store.saveSkill.save('replace')
    expect(client.saveSkill).toHaveBeenLastCalledWith({ taskId: 'task1', name: 'Phone for Ada', overwrite: true })
    expect(store.saveSkill.saved.value).toMatchObject({ slug: 'buy-a-phone', name: 'Phone for Ada' })
  })

  it('keeps both when the person says so', async () => {
    const { store, client } = setup({ views: finished(), skills: ['Phone for Ada'] })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('Phone for Ada')
    await store.saveSkill.save()
    await store.saveSkill.save('keepBoth')
    expect(client.saveSkill).toHaveBeenLastCalledWith({ taskId: 'task1', name: 'Phone for Ada', keepBoth: true })
    expect(store.saveSkill.saved.value).toMatchObject({ slug: 'buy-a-phone-2', name: 'Phone for Ada' })
  })

  it('explains other refusals in words and keeps the form', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    client.saveSkill.mockRejectedValueOnce(new ServerError('BAD_REQUEST', 'This task has no successful steps to replay.', 400))
    await store.saveSkill.save()
    expect(store.notice.value).toEqual({ text: 'This task has no successful steps to replay.', tone: 'error' })
    expect(store.saveSkill.form.value).not.toBeNull()
    client.saveSkill.mockRejectedValueOnce(new ServerError('CONFLICT', 'Only a finished task can be saved as a skill.', 409))
    await store.saveSkill.save()
    expect(store.notice.value?.text).toMatch(/Only a finished task/)
    expect(store.saveSkill.form.value?.conflict).toBeNull()
  })

  it('belongs to the task it was opened on: switching tasks hides the form and the saved line', async () => {
    const { store } = setup({ views: { ...finished(), task3: view('FAILED', { steps: worked }, 'task3') } })
    await store.load()
    store.saveSkill.open()
    await store.task.follow('task3')
    expect(store.saveSkill.form.value).toBeNull()
    expect(store.saveSkill.offered.value).toBe(true)
    await store.task.follow('task1')
    expect(store.saveSkill.form.value?.taskId).toBe('task1')
  })

  it('speaks Chinese', async () => {
    const { store } = setup({ views: finished(), skills: ['给 Ada 买手机'], lang: 'zh-CN' })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('给 Ada 买手机')
    await store.saveSkill.save()
    expect(store.t('save.conflict', { name: store.saveSkill.form.value!.conflict! })).toBe('你已有名为“给 Ada 买手机”的技能。可以用这个替换它，或两个都保留。')
    await store.saveSkill.save('replace')
    expect(store.notice.value?.text).toBe('已保存为技能“给 Ada 买手机”。')
    const { store: zh } = setup({ views: finished(), lang: 'zh-CN' })
    await zh.load()
    zh.saveSkill.open()
    zh.saveSkill.setName('')
    await zh.saveSkill.save()
    expect(zh.notice.value?.text).toBe('已保存为技能“Buy a search（每次运行时询问）”。')
  })
})
