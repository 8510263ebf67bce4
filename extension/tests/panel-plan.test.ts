import { describe, expect, it } from 'vitest'
import type { TaskPlan } from '#protocol'
import { panelTranslator } from '../lib/panel/i18n'
import { setupPanel as setup, task, view } from './panel-fakes'

const PLAN: TaskPlan = {
  steps: ['Search for the phone', 'Place the order'],
  sites: ['shop.example'],
  sends: [{ what: 'the order', kind: 'payment' }],
}
const waiting = () => ({ task1: view('WAITING_PLAN', { task: task('task1', 'WAITING_PLAN', { planFirst: true, plan: { state: 'proposed', proposed: PLAN } }) }) })

describe('panel store: a plan-first task', () => {
  it('asks for a plan first when the person ticks the option, and never for a skill that runs a script', async () => {
    const { store, client, stored } = setup({ followed: null })
    await store.load()
    store.newTask.setGoal('buy a phone')
    store.newTask.setPlanFirst(true)
    expect(stored.draft.planFirst).toBe(true)
    await store.newTask.start()
    expect(client.start).toHaveBeenLastCalledWith({ goal: 'buy a phone', planFirst: true })

    store.newTask.pickSkill({ slug: 'demo', name: 'Demo', scripted: true })
    store.newTask.setGoal('run the demo')
    await store.newTask.start()
    expect(client.start).toHaveBeenLastCalledWith({ goal: 'run the demo', skill: 'demo' })
  })

  it('shows the proposed plan only while the task waits for it', async () => {
    const { store, views } = setup({ views: waiting() })
    await store.load()
    expect(store.planReview.proposed.value).toEqual(PLAN)
    views.task1 = view('RUNNING', { task: task('task1', 'RUNNING', { plan: { state: 'approved', proposed: PLAN, approved: PLAN } }) })
    await store.task.refresh()
    expect(store.planReview.proposed.value).toBeNull()
  })

  it('approves the plan as proposed', async () => {
    const { store, client } = setup({ views: waiting() })
    await store.load()
    await store.planReview.approve()
    expect(client.plan).toHaveBeenCalledWith({ taskId: 'task1', approved: true })
    expect(store.notice.value).toEqual({ text: 'Plan approved: the task runs.', tone: 'info' })
  })

  it('approves the plan as the person edited it: steps and sites one a line, a send removed and one added', async () => {
    const { store, client } = setup({ views: waiting() })
    await store.load()
    store.planReview.startEdit()
    store.planReview.setSteps('Search for the phone\n\n  Put it in the cart \nPlace the order')
    store.planReview.setSites('shop.example\npay.example:8443')
    store.planReview.removeSend(0)
    store.planReview.addSend()
    store.planReview.setSend(0, 'the order, paid on pay.example')
    store.planReview.setSendKind(0, 'payment')
    await store.planReview.approve()
    expect(client.plan).toHaveBeenCalledWith({
      taskId: 'task1',
      approved: true,
      plan: {
        steps: ['Search for the phone', 'Put it in the cart', 'Place the order'],
        sites: ['shop.example', 'pay.example:8443'],
        sends: [{ what: 'the order, paid on pay.example', kind: 'payment' }],
      },
    })
    expect(store.planReview.edit.value).toBeNull()
  })

  it('refuses an edit the server would refuse, without calling it', async () => {
    const { store, client } = setup({ views: waiting() })
    await store.load()
    store.planReview.startEdit()
    store.planReview.setSites('the shop I like')
    await store.planReview.approve()
    expect(client.plan).not.toHaveBeenCalled()
    expect(store.notice.value).toEqual({ text: expect.stringMatching(/at least one step and one site/), tone: 'error' })
  })

  it('does not run the task when the person refuses the plan', async () => {
    const { store, client } = setup({ views: waiting() })
    await store.load()
    await store.planReview.reject()
    expect(client.plan).toHaveBeenCalledWith({ taskId: 'task1', approved: false, reason: 'The plan was not approved in the side panel.' })
  })

  it('words the plan in Chinese with full-width punctuation', () => {
    const zh = panelTranslator('zh-CN')
    expect(zh('plan.title')).toBe('批准计划')
    expect(zh('plan.approved')).toBe('计划已批准：任务开始执行。')
    expect(zh('start.planFirst')).toBe('先让我看计划')
  })
})
