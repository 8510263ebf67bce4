import { describe, expect, it, vi } from 'vitest'
import { createScreenshots } from '../lib/panel/screenshots'

describe('panel screenshots', () => {
  it('revokes every object URL it made when the panel leaves a task and comes back while a picture loads', async () => {
    const pending: Array<(blob: Blob) => void> = []
    let made = 0
    const deps = {
      load: vi.fn(() => new Promise<Blob>((resolve) => pending.push(resolve))),
      objectUrl: vi.fn(() => `blob:${++made}`),
      revoke: vi.fn(),
    }
    const shots = createScreenshots(deps)
    const first = shots.want('task1', ['a1.png'])
    shots.clear() // the panel shows another task …
    const second = shots.want('task1', ['a1.png']) // … and this one again
    for (const resolve of pending) resolve(new Blob(['png']))
    await Promise.all([first, second])
    shots.clear()
    expect(deps.objectUrl.mock.calls.length).toBeGreaterThan(0)
    expect(deps.revoke.mock.calls.map((c) => c[0]).sort()).toEqual(deps.objectUrl.mock.results.map((r) => r.value).sort())
  })
})
