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
    expect(store.saveSkill.form.value).toMatchObject({ taskId: 'task1', name: 'Buy an iPhone 15 for Ada', slug: '', conflict: null })
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

  it('saves with the name and slug given and shows the saved slug', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('  Phone for Ada ')
    store.saveSkill.setSlug(' Phone-For-Ada ')
    await store.saveSkill.save()
    expect(client.saveSkill).toHaveBeenCalledWith({ taskId: 'task1', name: 'Phone for Ada', slug: 'phone-for-ada' })
    expect(store.saveSkill.saved.value).toEqual({ taskId: 'task1', slug: 'phone-for-ada', name: 'Phone for Ada', scripted: true })
    expect(store.saveSkill.form.value).toBeNull()
    expect(store.saveSkill.offered.value).toBe(false)
    expect(store.notice.value).toEqual({ text: 'Saved as the skill “phone-for-ada”.', tone: 'info' })
  })

  it('leaves the slug to the server when none is given', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setName('')
    await store.saveSkill.save()
    expect(client.saveSkill).toHaveBeenCalledWith({ taskId: 'task1' })
    expect(store.saveSkill.saved.value?.slug).toBe('buy-a-phone')
  })

  it('refuses a slug the server would refuse, without calling it', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setSlug('-no good')
    await store.saveSkill.save()
    expect(client.saveSkill).not.toHaveBeenCalled()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/lowercase letters, digits and dashes/), tone: 'error' })
  })

  it('names the slug that is taken and overwrites it only when asked', async () => {
    const { store, client } = setup({ views: finished(), skills: ['buy-a-phone'] })
    await store.load()
    store.saveSkill.open()
    await store.saveSkill.save()
    expect(store.saveSkill.saved.value).toBeNull()
    expect(store.saveSkill.form.value).toMatchObject({ slug: 'buy-a-phone', conflict: 'buy-a-phone' })
    // Another slug is a fresh try: the conflict is forgotten.
    store.saveSkill.setSlug('buy-a-phone-2')
    expect(store.saveSkill.form.value?.conflict).toBeNull()
    store.saveSkill.setSlug('buy-a-phone')
    await store.saveSkill.save()
    expect(store.saveSkill.form.value?.conflict).toBe('buy-a-phone')
    await store.saveSkill.save(true)
    expect(client.saveSkill).toHaveBeenLastCalledWith({ taskId: 'task1', name: expect.any(String), slug: 'buy-a-phone', overwrite: true })
    expect(store.saveSkill.saved.value?.slug).toBe('buy-a-phone')
  })

  it('never offers to overwrite a skill that comes with Tandem', async () => {
    const { store, client } = setup({ views: finished() })
    await store.load()
    store.saveSkill.open()
    store.saveSkill.setSlug('login-safely')
    client.saveSkill.mockRejectedValueOnce(new ServerError('CONFLICT', 'login-safely comes with Tandem.', 409, { slug: 'login-safely', shipped: true }))
    await store.saveSkill.save()
    expect(store.saveSkill.form.value).toMatchObject({ slug: 'login-safely', conflict: 'login-safely', shipped: true })
    expect(store.t('save.shipped', { slug: 'login-safely' })).toBe('“login-safely” is a skill that comes with Tandem and is never overwritten: choose another short name.')
    store.saveSkill.setSlug('my-login')
    expect(store.saveSkill.form.value).toMatchObject({ conflict: null, shipped: false })
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
    const { store } = setup({ views: finished(), skills: ['buy-a-phone'], lang: 'zh-CN' })
    await store.load()
    store.saveSkill.open()
    await store.saveSkill.save()
    expect(store.t('save.conflict', { slug: 'buy-a-phone' })).toBe('已有名为“buy-a-phone”的技能。可以覆盖它，或换一个简称。')
    await store.saveSkill.save(true)
    expect(store.notice.value?.text).toBe('已保存为技能“buy-a-phone”。')
  })
})
