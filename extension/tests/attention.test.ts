import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowser } from 'wxt/testing'
import type { StatusView, TaskStatus } from '#protocol'
import { executorItem, EMPTY_STATE } from '../lib/executor/state'
import { createAttention } from '../lib/worker/attention'
import { BADGE_ASK_COLOR, BADGE_CONFIRM_COLOR, badgeFor, type Waiting } from '../lib/worker/badge'

const waiting = (taskId: string, kind: Waiting['kind']): Waiting => ({ taskId, kind, key: `${kind}:${taskId}`, goal: 'g' })

describe('badge', () => {
  it('is empty when nothing waits', () => {
    expect(badgeFor([]).text).toBe('')
  })

  it('says "!" in red for an approval and "?" for a question', () => {
    expect(badgeFor([waiting('a', 'confirm')])).toEqual({ text: '!', color: BADGE_CONFIRM_COLOR })
    expect(badgeFor([waiting('a', 'ask')])).toEqual({ text: '?', color: BADGE_ASK_COLOR })
  })

  it('counts several, red when an approval is among them', () => {
    expect(badgeFor([waiting('a', 'ask'), waiting('b', 'confirm')])).toEqual({ text: '2', color: BADGE_CONFIRM_COLOR })
    expect(badgeFor([waiting('a', 'ask'), waiting('b', 'ask'), waiting('c', 'ask')])).toEqual({ text: '3', color: BADGE_ASK_COLOR })
  })
})

function setup(opts: { panelOpen?: boolean; locale?: string } = {}) {
  const views: Record<string, { status: TaskStatus; actionId?: string; question?: string }> = {}
  const server = {
    status: vi.fn(async (taskId: string) => {
      const v = views[taskId]!
      return {
        task: { id: taskId, goal: `goal of ${taskId}`, status: v.status, ...(v.question ? { question: v.question } : {}) },
        pendingConfirmation: v.actionId ? { actionId: v.actionId } : null,
      } as unknown as StatusView
    }),
  }
  const panel = { open: opts.panelOpen ?? false }
  const sidePanel = { open: vi.fn(async () => undefined) }
  const attention = createAttention({
    action: fakeBrowser.action as never,
    notifications: fakeBrowser.notifications as never,
    tabs: fakeBrowser.tabs as never,
    windows: fakeBrowser.windows as never,
    sidePanel: sidePanel as never,
    server,
    panelOpen: async () => panel.open,
    locale: opts.locale ?? 'en-US',
  })
  const see = async (taskId: string, status: TaskStatus, extra: { actionId?: string; question?: string } = {}) => {
    views[taskId] = { status, ...extra }
    await attention.seen(taskId, status)
  }
  return { attention, see, panel, server, sidePanel }
}

const badge = () => fakeBrowser.action.getBadgeText({})
const notifications = async () => fakeBrowser.notifications.getAll() as Promise<Record<string, { title: string; message: string }>>

beforeEach(() => fakeBrowser.reset())

describe('attention', () => {
  it('badges a waiting confirmation and notifies once per pending action while the panel is closed', async () => {
    const { see } = setup()
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a1' })
    expect(await badge()).toBe('!')
    expect(Object.keys(await notifications())).toEqual(['confirm:a1'])
    expect((await notifications())['confirm:a1']).toMatchObject({ title: 'Tandem needs your approval' })
    expect((await notifications())['confirm:a1']!.message).toContain('goal of t1')
    await fakeBrowser.notifications.clear('confirm:a1')
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a1' })
    expect(await notifications()).toEqual({})
  })

  it('clears the badge and the notification when the decision is made', async () => {
    const { see } = setup()
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a1' })
    await see('t1', 'RUNNING')
    expect(await badge()).toBe('')
    expect(await notifications()).toEqual({})
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a2' })
    expect(Object.keys(await notifications())).toEqual(['confirm:a2'])
  })

  it('badges but does not notify while the side panel is open, and notifies once it is closed', async () => {
    const { see, panel } = setup({ panelOpen: true })
    await see('t1', 'WAITING_USER', { question: 'Which size?' })
    expect(await badge()).toBe('?')
    expect(await notifications()).toEqual({})
    panel.open = false
    await see('t1', 'WAITING_USER', { question: 'Which size?' })
    expect(Object.keys(await notifications())).toHaveLength(1)
    expect(Object.values(await notifications())[0]).toMatchObject({ title: 'Tandem has a question' })
  })

  it('counts tasks that wait, and forgets them all when the client has no active task', async () => {
    const { see, attention } = setup()
    await see('t1', 'WAITING_USER', { question: 'q' })
    await see('t2', 'WAITING_CONFIRMATION', { actionId: 'a9' })
    expect(await badge()).toBe('2')
    await attention.seen(null, null)
    expect(await badge()).toBe('')
    expect(await notifications()).toEqual({})
  })

  it('writes its notifications in Chinese for a Chinese browser', async () => {
    const { see } = setup({ locale: 'zh-CN' })
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a1' })
    expect((await notifications())['confirm:a1']).toMatchObject({ title: 'Tandem 需要你的批准' })
  })

  it('brings the task tab forward and opens the side panel when its notification is clicked', async () => {
    await executorItem.setValue({ ...EMPTY_STATE, tasks: { t1: { tabId: 5, closed: false, at: 1 } } })
    const tabUpdate = vi.spyOn(fakeBrowser.tabs, 'update').mockResolvedValue({ id: 5, windowId: 2 } as never)
    const windowUpdate = vi.spyOn(fakeBrowser.windows, 'update').mockResolvedValue({ id: 2 } as never)
    const { see, attention, sidePanel } = setup()
    await see('t1', 'WAITING_CONFIRMATION', { actionId: 'a1' })
    await attention.clicked('confirm:a1')
    expect(sidePanel.open).toHaveBeenCalledWith({ tabId: 5 })
    expect(tabUpdate).toHaveBeenCalledWith(5, { active: true })
    expect(windowUpdate).toHaveBeenCalledWith(2, { focused: true })
    expect(await notifications()).toEqual({})
  })
})
