import { describe, expect, it } from 'vitest'
import { TaskStatus } from '#protocol'
import { panelControls } from '../lib/panel/controls'
import { pendingOrder, setupPanel as setup, view } from './panel-fakes'

// Written out, not read from the table: what each status offers the person in the panel.
const SHOWN: Record<TaskStatus, string[]> = {
  RUNNING: ['pause', 'cancel'],
  WAITING_PAGE: ['pause', 'cancel'],
  WAITING_CONFIRMATION: ['pause', 'cancel', 'confirm'],
  WAITING_USER: ['pause', 'cancel', 'answer'],
  WAITING_PLAN: ['cancel', 'plan'],
  PAUSED: ['resume', 'cancel'],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
}

describe('panel controls: each one only where it can act', () => {
  it.each(TaskStatus.options)('%s', (status) => {
    const controls = panelControls(status)
    const on = Object.entries(controls).flatMap(([name, shown]) => (shown ? [name] : []))
    expect(on.sort()).toEqual([...SHOWN[status]].sort())
  })

  it('offers nothing without a task', () => {
    expect(Object.values(panelControls(null)).some(Boolean)).toBe(false)
  })

  it('does not offer Pause (take over) while a plan waits for approval', async () => {
    const { store } = setup({ views: { task1: view('WAITING_PLAN') } })
    await store.load()
    expect(store.task.controls.value.pause).toBe(false)
    expect(store.task.controls.value.cancel).toBe(true)
  })

  it('shows no card to approve while the person has taken over; it comes back once resumed', async () => {
    const { store, views } = setup({ views: { task1: view('PAUSED', { pendingConfirmation: pendingOrder() }) } })
    await store.load()
    expect(store.task.pending.value).toBeNull()
    views.task1 = view('WAITING_CONFIRMATION', { pendingConfirmation: pendingOrder() })
    await store.refresh()
    expect(store.task.pending.value?.actionId).toBe('act9')
  })
})
