import { describe, expect, it, vi } from 'vitest'
import { ContentError } from '../lib/executor/content-channel'
import { DebuggerError } from '../lib/executor/debugger'
import { createScreenshotter } from '../lib/executor/screenshot'
import type { Tab } from '../lib/executor/task-tab'

const tab = () => ({ id: 7, windowId: 1, active: false, url: 'http://shop.example/' }) as unknown as Tab & { id: number }

function setup(
  overrides: {
    masked?: boolean
    /** Whether the task tab is the one in front, as the browser says at capture time. */
    active?: boolean
    send?: () => Promise<unknown>
    capture?: () => Promise<string>
  } = {},
) {
  const calls: string[] = []
  let clock = 0
  const content = {
    ensure: vi.fn(async () => undefined),
    ask: vi.fn(async (_tabId: number, request: { kind: string }) => {
      calls.push(request.kind)
      return request.kind === 'mask' ? { masked: overrides.masked ?? true } : { restored: true }
    }),
  }
  let screencasting = false
  const debuggee = {
    send: vi.fn(async (_tabId: number, method: string, _params?: unknown, _timeoutMs?: number): Promise<unknown> => {
      if (method === 'Page.startScreencast') {
        // As Chrome answers while the attachment already holds one.
        if (screencasting) throw new DebuggerError('failed', '{"code":-32000,"message":"Screencast is already active"}')
        screencasting = true
        return {}
      }
      if (overrides.send) return overrides.send()
      calls.push('cdp')
      return { data: 'Q0RQ' }
    }),
  }
  const tabs = {
    get: vi.fn(async () => ({ ...tab(), active: overrides.active ?? false })),
    captureVisibleTab: vi.fn(
      overrides.capture ??
        (async () => {
          calls.push(`visible@${clock}`)
          return 'data:image/jpeg;base64,QUJD'
        }),
    ),
  }
  const sleep = vi.fn(async (ms: number) => {
    clock += ms
  })
  const shooter = createScreenshotter({ tabs: tabs as never, content: content as never, debugger: debuggee as never, now: () => clock, sleep })
  return { shooter, calls, sleep, content, debuggee, tabs }
}

const refusedBy = (reason: DebuggerError['reason']) => async (): Promise<unknown> => Promise.reject(new DebuggerError(reason, 'no'))

describe('screenshots', () => {
  it('captures the task tab through the debugger, in front or not, between masking and unmasking', async () => {
    const { shooter, calls, debuggee, tabs } = setup()
    const shot = await shooter.capture(tab(), 'before')
    expect(shot).toEqual({ artifact: { label: 'before', contentType: 'image/jpeg', data: 'Q0RQ' } })
    expect(calls).toEqual(['mask', 'cdp', 'unmask'])
    expect(debuggee.send).toHaveBeenCalledWith(7, 'Page.captureScreenshot', { format: 'jpeg', quality: 70, captureBeyondViewport: false }, 10_000)
    expect(tabs.captureVisibleTab).not.toHaveBeenCalled()
  })

  it('keeps a screencast open on the tab first, so Chrome renders a background tab for each capture at once', async () => {
    const { shooter, calls, debuggee } = setup()
    await shooter.capture(tab(), 'before')
    await shooter.capture(tab(), 'after')
    const methods = debuggee.send.mock.calls.map((c) => c[1])
    expect(methods).toEqual(['Page.startScreencast', 'Page.captureScreenshot', 'Page.startScreencast', 'Page.captureScreenshot'])
    // The second start finds it running ("already active"), which is no failure.
    expect(calls).toEqual(['mask', 'cdp', 'unmask', 'mask', 'cdp', 'unmask'])
  })

  it('starts the screencast once for each attachment of the debugger to the tab', async () => {
    const { content } = setup()
    let attachment = 1
    const send = vi.fn(async (_tabId: number, method: string) => (method === 'Page.captureScreenshot' ? { data: 'Q0RQ' } : {}))
    const shooter = createScreenshotter({ tabs: { get: vi.fn() } as never, content: content as never, debugger: { send, attachment: () => attachment } as never })
    await shooter.capture(tab(), 'before')
    await shooter.capture(tab(), 'after')
    attachment++
    await shooter.capture(tab(), 'after')
    expect(send.mock.calls.map((c) => c[1])).toEqual(['Page.startScreencast', 'Page.captureScreenshot', 'Page.captureScreenshot', 'Page.startScreencast', 'Page.captureScreenshot'])
  })

  it('starts Tandem in a page that does not run it yet, and masks it before the capture', async () => {
    const { shooter, calls, content } = setup()
    content.ask.mockRejectedValueOnce(new ContentError('gone', 'no receiver'))
    expect(await shooter.capture(tab(), 'after')).toMatchObject({ artifact: { data: 'Q0RQ' } })
    expect(content.ensure).toHaveBeenCalledWith(7)
    expect(calls).toEqual(['mask', 'cdp', 'unmask'])
  })

  it('asks the page to mask the emails and phone numbers the server hides, and only those', async () => {
    const asked = (s: ReturnType<typeof setup>) => s.content.ask.mock.calls.map((c) => c[1])
    const withSettings = setup()
    await withSettings.shooter.capture(tab(), 'before', { emails: true })
    expect(asked(withSettings)[0]).toEqual({ kind: 'mask', restoreAfterMs: 3000, redact: { emails: true }, paint: false })
    const plain = setup()
    await plain.shooter.capture(tab(), 'before')
    expect(asked(plain)[0]).toEqual({ kind: 'mask', restoreAfterMs: 3000, paint: false })
  })

  it('takes no screenshot when masking failed', async () => {
    const { shooter, calls } = setup({ masked: false })
    expect(await shooter.capture(tab(), 'after')).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE' } })
    expect(calls).toEqual(['mask'])
  })

  it('captures the visible tab instead when the debugger cannot be used and the task tab is the one in front', async () => {
    const { shooter, calls, content } = setup({ active: true, send: refusedBy('declined') })
    expect(await shooter.capture(tab(), 'before')).toEqual({ artifact: { label: 'before', contentType: 'image/jpeg', data: 'QUJD' } })
    // The screen shows the page as painted: it is masked again and painted before the capture (the debugger needs no paint).
    expect(calls).toEqual(['mask', 'mask', 'visible@0', 'unmask'])
    expect(content.ask.mock.calls.map((c) => c[1]).filter((r) => r.kind === 'mask')).toEqual([
      { kind: 'mask', restoreAfterMs: 3000, paint: false },
      { kind: 'mask', restoreAfterMs: 3000 },
    ])
  })

  it('says why and what to do when the debugger cannot be used and the task tab is in the background', async () => {
    for (const [reason, says] of [
      ['declined', /bar was canceled.*bring the task’s tab to the front and click Tandem’s toolbar icon/],
      ['busy', /Another debugger.*close the other debugger, or bring the task’s tab to the front/],
      ['timeout', /did not capture the task’s tab in time/],
      ['failed', /would not let Tandem capture the task’s tab \(no\)/],
    ] as const) {
      const { shooter, calls, tabs } = setup({ send: refusedBy(reason) })
      const shot = await shooter.capture(tab(), 'after')
      expect(shot).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE', message: expect.stringMatching(says) } })
      // Never the visible tab: that would be some other page.
      expect(tabs.captureVisibleTab).not.toHaveBeenCalled()
      expect(calls).toEqual(['mask', 'unmask'])
    }
  })

  it('says both reasons when the visible tab cannot be captured either (no click on the toolbar icon yet), and still unmasks', async () => {
    const { shooter, calls } = setup({
      active: true,
      send: refusedBy('declined'),
      capture: async () => Promise.reject(new Error("Either the '<all_urls>' or 'activeTab' permission is required.")),
    })
    const shot = await shooter.capture(tab(), 'before')
    expect(shot).toMatchObject({ error: { code: 'SCREENSHOT_UNAVAILABLE', message: expect.stringMatching(/canceled[\s\S]*failed too: Either/) } })
    expect(calls).toEqual(['mask', 'mask', 'unmask'])
  })

  it('stays under two visible-tab captures a second', async () => {
    const { shooter, calls } = setup({ active: true, send: refusedBy('busy') })
    await Promise.all([shooter.capture(tab(), 'before'), shooter.capture(tab(), 'after'), shooter.capture(tab(), 'observation')])
    const times = calls.filter((c) => c.startsWith('visible@')).map((c) => Number(c.split('@')[1]))
    expect(times).toHaveLength(3)
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(500)
  })

  it('takes one capture at a time, so one capture never unmasks the page under another', async () => {
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const { shooter, calls } = setup({
      send: async () => {
        calls.push('cdp')
        if (calls.filter((c) => c === 'cdp').length === 1) await gate
        return { data: 'Q0RQ' }
      },
    })
    const both = Promise.all([shooter.capture(tab(), 'before'), shooter.capture(tab(), 'after')])
    await vi.waitFor(() => expect(calls).toEqual(['mask', 'cdp']))
    release()
    await both
    expect(calls).toEqual(['mask', 'cdp', 'unmask', 'mask', 'cdp', 'unmask'])
  })
})
