import { describe, expect, it, vi } from 'vitest'
import { createScreenshotter } from '../lib/executor/screenshot'
import type { Tab } from '../lib/executor/task-tab'

const tab = (active = true) => ({ id: 7, windowId: 1, active, url: 'http://shop.example/' }) as unknown as Tab & { id: number }

function setup(overrides: { masked?: boolean; capture?: () => Promise<string> } = {}) {
  const calls: string[] = []
  let clock = 0
  const content = {
    ensure: vi.fn(async () => undefined),
    ask: vi.fn(async (_tabId: number, request: { kind: string }) => {
      calls.push(request.kind)
      return request.kind === 'mask' ? { masked: overrides.masked ?? true } : { restored: true }
    }),
  }
  const tabs = {
    captureVisibleTab: vi.fn(overrides.capture ?? (async () => {
      calls.push(`capture@${clock}`)
      return 'data:image/jpeg;base64,QUJD'
    })),
  }
  const sleep = vi.fn(async (ms: number) => {
    clock += ms
  })
  const shooter = createScreenshotter({ tabs: tabs as never, content: content as never, now: () => clock, sleep })
  return { shooter, calls, sleep, content }
}

describe('screenshots', () => {
  it('masks sensitive fields around the capture and returns the image', async () => {
    const { shooter, calls } = setup()
    const shot = await shooter.capture(tab(), 'before')
    expect(shot).toEqual({ artifact: { label: 'before', contentType: 'image/jpeg', data: 'QUJD' } })
    expect(calls).toEqual(['mask', 'capture@0', 'unmask'])
  })

  it('asks the page to mask the emails and phone numbers the server hides, and only those', async () => {
    const asked = (s: ReturnType<typeof setup>) => s.content.ask.mock.calls.map((c) => c[1])
    const withSettings = setup()
    await withSettings.shooter.capture(tab(), 'before', { emails: true })
    expect(asked(withSettings)[0]).toEqual({ kind: 'mask', restoreAfterMs: 3000, redact: { emails: true } })
    const plain = setup()
    await plain.shooter.capture(tab(), 'before')
    expect(asked(plain)[0]).toEqual({ kind: 'mask', restoreAfterMs: 3000 })
  })

  it('stays under two captures a second', async () => {
    const { shooter, calls } = setup()
    await Promise.all([shooter.capture(tab(), 'before'), shooter.capture(tab(), 'after'), shooter.capture(tab(), 'observation')])
    const times = calls.filter((c) => c.startsWith('capture@')).map((c) => Number(c.split('@')[1]))
    expect(times).toHaveLength(3)
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(500)
  })

  it('takes no screenshot when masking failed, or when the task tab is not visible', async () => {
    expect(await setup({ masked: false }).shooter.capture(tab(), 'after')).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE' } })
    const { shooter, calls } = setup()
    expect(await shooter.capture(tab(false), 'after')).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE' } })
    expect(calls).toEqual([])
  })

  it('says SCREENSHOT_UNAVAILABLE when the browser refuses, and still unmasks', async () => {
    const { shooter, calls } = setup({ capture: async () => Promise.reject(new Error('Missing activeTab permission')) })
    expect(await shooter.capture(tab(), 'before')).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE' } })
    expect(calls).toEqual(['mask', 'unmask'])
  })
})
